/**
 * Real processes, a real kill, watched from a process that runs nothing: three durable workers
 * run the fan-out (its root on the first, its children on all three); the test follows the run
 * with `watchRun` and records it with `@cohort/report`. The root's worker is SIGKILLed for good
 * mid-run and a live worker takes its units over. The events name the worker of every session
 * and a `session.resumed` for every unit started again — the ones `inspectRuns` lists with more
 * than one start, on the same workers — and the run report shows them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { expect, it } from 'vitest';
import type { PlacedEvent, SessionResumedEvent } from '@cohort/runtime';
import { recordRun, writeRunReport } from '@cohort/report';
import { inspectRuns, watchRun } from '../src/index.ts';
import { useFleet } from './utils/fleet.ts';
import { unitsOf } from './utils/crashFree.ts';

const fleet = useFleet({ heartbeatMs: 200, takeoverAfterMs: 1_500 });
const { systemDatabaseUrl } = fleet;
const RUN = { id: 'watch-1', children: 8, delayMs: 500 };

it('durable run - watched across a SIGKILL: every session names its worker, every resumed unit says where, the report shows both', async () => {
  const first = fleet.start({ ...fleet.options('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  const others = [fleet.start(fleet.options('worker-2')), fleet.start(fleet.options('worker-3'))];
  await Promise.all(others.map((w) => w.line('ready', 40_000)));

  // the watchers: raw events, and a recording as the report and the live view make it
  const events = lastValueFrom(watchRun(systemDatabaseUrl, RUN.id, { pollingIntervalMs: 100 }).pipe(toArray()));
  const recorder = recordRun({ events$: watchRun(systemDatabaseUrl, RUN.id, { pollingIntervalMs: 100 }) }, { title: 'watched' });

  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    const done = (await unitsOf(RUN.id, systemDatabaseUrl)).filter((u) => u.id !== RUN.id && u.status === 'SUCCESS').length;
    if (done >= 3 && done < RUN.children) break;
  }
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));

  const seen = await events;
  const runs = await inspectRuns(systemDatabaseUrl);
  const shown = await runs.show(RUN.id);
  await runs.close();
  expect(shown?.status, 'the run finished on the other workers').toBe('SUCCESS');

  // the root started on worker-1 and was resumed on its taker
  const root = seen.find((e) => e.type === 'session.spawned' && e.parentId === null) as
    | Extract<PlacedEvent, { type: 'session.spawned' }>
    | undefined;
  expect(root?.worker).toBe('worker-1');
  const resumed = seen.filter((e): e is SessionResumedEvent => e.type === 'session.resumed');
  const rootResume = resumed.find((e) => e.unit === RUN.id);
  expect(rootResume).toMatchObject({ sessionId: root?.sessionId, previous: 'worker-1', start: 2 });
  expect(['worker-2', 'worker-3']).toContain(rootResume?.worker);
  // every unit started more than once has its resume in the events, on the workers the records name
  for (const unit of shown?.units ?? []) {
    const mine = resumed.filter((e) => e.unit === unit.id).sort((a, b) => a.start - b.start);
    expect(
      mine.map((e) => [e.previous, e.worker]),
      `the resumes of ${unit.id}`,
    ).toEqual(unit.starts.slice(1).map((s, i) => [unit.starts[i]?.executor, s.executor]));
  }

  // every writer's session names the worker that ran it; they ran on two workers or more
  const recording = recorder.stop();
  const sessions = recording.runs[0]?.sessions ?? [];
  const writers = sessions.filter((s) => s.name?.startsWith('writer '));
  expect(writers).toHaveLength(RUN.children);
  for (const w of writers) {
    expect(w.status, `${w.name} committed`).toBe('committed');
    const unit = shown?.units.find((u) => u.name === w.name);
    expect(w.worker, `${w.name} ran where its unit last started`).toBe(unit?.starts.at(-1)?.executor);
  }
  expect(new Set(writers.map((w) => w.worker)).size).toBeGreaterThanOrEqual(2);
  const rootRecord = sessions.find((s) => s.parentId === null);
  expect(rootRecord).toMatchObject({ status: 'committed', worker: rootResume?.worker, resumes: [{ previous: 'worker-1' }] });
  expect(seen.every((e: PlacedEvent) => e.type === 'session.resumed' || e.unit !== undefined)).toBe(true);

  // the run report holds them
  const dir = await mkdtemp(join(tmpdir(), 'cohort-watch-'));
  try {
    await writeRunReport(recording, join(dir, 'run.html'));
    const html = await readFile(join(dir, 'run.html'), 'utf8');
    expect(html).toContain(`"worker":"${rootResume?.worker}"`);
    expect(html).toContain('"previous":"worker-1"');
    for (const w of new Set(writers.map((s) => s.worker))) expect(html).toContain(`"worker":"${w}"`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 150_000);
