/**
 * The run event log on PostgreSQL: writers that write at once get numbers in the order their
 * writes committed, with no gap and no event twice (a write repeated after a lost answer adds
 * nothing); a watcher started before any worker made the tables waits, reads every event in
 * order, and completes once the run's workflow has finished.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, expect, it } from 'vitest';
import type { PlacedEvent } from '@cohort/runtime';
import { EventLog } from '../src/internal/EventLog.ts';
import { Journal } from '../src/internal/Journal.ts';
import { followRun } from '../src/watchRun.ts';
import { databaseUrl, freshName, sql } from './utils/pg.ts';

const database = freshName('cohort_events_test');
const url = databaseUrl(database);
const journal = new Journal(url);

afterAll(async () => {
  await journal.close();
  await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
});

const event = (writer: number, i: number): PlacedEvent =>
  ({
    type: 'session.cancelled',
    sessionId: `s${writer}`,
    path: [`s${writer}`],
    at: i,
    reason: 'test',
    worker: `w${writer}`,
  }) as PlacedEvent;

it('event log - concurrent writers: numbered 1…n in commit order, nothing twice; a watcher reads them all and completes with the run', async () => {
  await sql(`CREATE DATABASE "${database}"`);
  // the run's workflow, as DBOS records it (a watcher completes when it has finished)
  await sql('CREATE SCHEMA dbos', [], url);
  await sql('CREATE TABLE dbos.workflow_status (workflow_uuid text PRIMARY KEY, status text NOT NULL)', [], url);
  await sql(`INSERT INTO dbos.workflow_status VALUES ('run-1', 'PENDING')`, [], url);
  // watching before any worker made the event tables: it waits
  const watched = lastValueFrom(followRun(journal, 'run-1', { pollingIntervalMs: 10 }).pipe(toArray()));
  await journal.open();
  const log = new EventLog(journal);

  const WRITERS = 6;
  const BATCHES = 10;
  const SIZE = 5;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let b = 0; b < BATCHES; b++) {
        const batch = Array.from({ length: SIZE }, (_, i) => event(w, b * SIZE + i));
        await log.write('run-1', `writer-${w}`, b * SIZE, batch);
      }
    }),
  );
  // a write repeated (its answer lost with its connection) adds nothing
  await log.write('run-1', 'writer-0', 0, [event(0, 0), event(0, 1)]);
  // another run's events are its own
  await log.write('run-2', 'other', 0, [event(9, 0)]);

  const rows = await sql<{ seq: string; event: { sessionId: string; at: number } }>(
    `SELECT seq, event FROM cohort_durable.events WHERE run = 'run-1' ORDER BY seq`,
    [],
    url,
  );
  const total = WRITERS * BATCHES * SIZE;
  expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  for (let w = 0; w < WRITERS; w++) {
    const mine = rows.filter((r) => r.event.sessionId === `s${w}`).map((r) => r.event.at);
    expect(mine, `writer ${w}'s events, once each, in its order`).toEqual(Array.from({ length: BATCHES * SIZE }, (_, i) => i));
  }

  await sql(`UPDATE dbos.workflow_status SET status = 'SUCCESS' WHERE workflow_uuid = 'run-1'`, [], url);
  const seen = await watched;
  expect(seen).toHaveLength(total);
  expect(seen.map((e) => `${'sessionId' in e ? e.sessionId : '?'} ${e.at}`)).toEqual(rows.map((r) => `${r.event.sessionId} ${r.event.at}`));
  expect(seen.every((e) => e.type === 'session.cancelled' && e.worker === e.sessionId.replace('s', 'w'))).toBe(true);
});
