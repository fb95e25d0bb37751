/**
 * The events of a durable tree without a database: a root unit on one worker, its registered
 * children run by another, every unit's events written to an in-memory log. They are the
 * runtime's events placed in one tree — the children's sessions under their proxies, each
 * naming the worker that ran it — and a unit started again says it was resumed, and where.
 */
import { describe, expect, it } from 'vitest';
import type { PlacedEvent, Session } from '@cohort/runtime';
import { recordEvents, renderRunReport } from '@cohort/report';
import { Bodies } from '../../src/Bodies.ts';
import type { EventSink } from '../../src/internal/EventLog.ts';
import { runRoot } from '../../src/internal/runRoot.ts';
import { runUnit } from '../../src/internal/UnitRun.ts';
import type { UnitHost } from '../../src/internal/UnitRun.ts';
import type { UnitSpec } from '../../src/UnitSpec.ts';
import { memoryHost } from '../utils/memoryHost.ts';

async function learn(s: Session<{ issue: string; fail?: boolean }>): Promise<string> {
  // an in-process child of the remote one: it runs on the child's worker too
  await s.spawn(async (c) => c.tools.add_skill({ section: 'harness', issue: `${s.input.issue} detail`, insight: 'nested' }), {
    name: 'detail',
  });
  const added = await s.tools.add_skill({ section: 'harness', issue: s.input.issue, insight: 'learned' });
  if (s.input.fail) throw new Error(`${s.input.issue} gave up`);
  return 'error' in added ? added.error : added.skill_id;
}

async function survey(s: Session<{ issues: string[]; fail?: string }>): Promise<string[]> {
  const outcomes = await Promise.all(
    s.input.issues.map((issue) => s.spawn(learn, { input: { issue, ...(issue === s.input.fail ? { fail: true } : {}) }, name: issue })),
  );
  return outcomes.map((o) => o.status);
}

/** A log in memory: every written batch, in write order. */
function memoryLog(): EventSink & { events: PlacedEvent[] } {
  const events: PlacedEvent[] = [];
  return { events, write: async (_run, _source, _from, batch) => void events.push(...batch) };
}

/** Two workers on one journal and store: the root's on `worker-a`, the children's on `worker-b`. */
function twoWorkers(log: EventSink): { a: UnitHost; b: UnitHost; childSpecs: UnitSpec[] } {
  const bodies = new Bodies({ learn, survey });
  const childSpecs: UnitSpec[] = [];
  const base = memoryHost(bodies);
  const b: UnitHost = { ...base, executorId: 'worker-b', events: log };
  const a: UnitHost = {
    ...base,
    executorId: 'worker-a',
    events: log,
    runChild: (spec) => {
      childSpecs.push(spec);
      return runUnit(b, spec);
    },
  };
  return { a, b, childSpecs };
}

describe('the events of a durable tree', () => {
  it("place each session on the worker that ran it, children's sessions under their proxies, the root landing once", async () => {
    const log = memoryLog();
    const { a } = twoWorkers(log);
    const outcome = await runRoot(a, { runId: 'watch-1', body: 'survey', input: { issues: ['flaky API', 'slow disk'] } });
    expect(outcome.status).toBe('committed');

    const spawned = log.events.flatMap((e) => (e.type === 'session.spawned' ? [e] : []));
    const root = spawned.find((e) => e.parentId === null);
    expect(root).toMatchObject({ worker: 'worker-a', unit: 'watch-1' });
    // a child's body ran on worker-b: its proxy's spawn names no worker, its own names worker-b, both with one id and path
    const flaky = spawned.filter((e) => e.name === 'flaky API');
    expect(flaky.map((e) => e.worker ?? 'none').sort()).toEqual(['none', 'worker-b']);
    expect(new Set(flaky.map((e) => `${e.sessionId} ${e.path.join('/')}`)).size).toBe(1);
    expect(flaky.find((e) => e.worker)).toMatchObject({ unit: 'watch-1/0.1', parentId: root?.sessionId, depth: 1 });
    // the child's in-process child: under the child's session, on the child's worker
    const details = spawned.filter((e) => e.name === 'detail');
    expect(details).toHaveLength(2);
    const homes = new Set(spawned.filter((e) => e.depth === 1).map((e) => e.sessionId));
    for (const d of details) {
      expect(d).toMatchObject({ worker: 'worker-b', depth: 2, path: [root?.sessionId, d.parentId, d.sessionId] });
      expect(homes.has(d.parentId as never)).toBe(true);
    }
    // no merge into a unit's own in-memory store; the root's landing, once, at the store's revision
    const intoRoot = log.events.filter((e) => e.type === 'session.merged' && e.into === 'root');
    expect(intoRoot).toEqual([
      expect.objectContaining({
        sessionId: root?.sessionId,
        worker: 'worker-a',
        revision: outcome.status === 'committed' ? outcome.revision : -1,
      }),
    ]);
    expect(log.events.filter((e) => e.type.startsWith('store.'))).toEqual([]);

    // the recording and the report show each session's worker
    const run = recordEvents(log.events.map((event) => ({ event }))).runs[0];
    const workers = Object.fromEntries((run?.sessions ?? []).map((s) => [s.name ?? 'root', s.worker]));
    expect(workers).toEqual({ root: 'worker-a', 'flaky API': 'worker-b', 'slow disk': 'worker-b', detail: 'worker-b' });
    expect(run?.sessions.every((s) => s.status === 'committed')).toBe(true);
  });

  it('a unit started again is resumed: a session.resumed names the worker before, and the report shows it', async () => {
    const log = memoryLog();
    const { a, b, childSpecs } = twoWorkers(log);
    await runRoot(a, { runId: 'watch-2', body: 'survey', input: { issues: ['flaky API'] } });
    const child = childSpecs[0];
    if (!child) throw new Error('no child unit ran');
    // the child unit runs again on worker-c (its worker was taken over)
    const c: UnitHost = { ...b, executorId: 'worker-c' };
    await runUnit(c, child);
    const resumed = log.events.filter((e) => e.type === 'session.resumed');
    expect(resumed).toEqual([
      expect.objectContaining({
        sessionId: child.home?.sessionId,
        unit: 'watch-2/0.1',
        worker: 'worker-c',
        previous: 'worker-b',
        start: 2,
      }),
    ]);
    const recording = recordEvents(log.events.map((event) => ({ event })));
    const session = recording.runs[0]?.sessions.find((s) => s.id === child.home?.sessionId);
    expect(session).toMatchObject({ worker: 'worker-c', resumes: [{ worker: 'worker-c', previous: 'worker-b', start: 2 }] });
    expect(renderRunReport(recording)).toContain('"previous":"worker-b"');
  });

  it("a proxy whose child unit failed carries the child's failure, and the failed session keeps its worker", async () => {
    const log = memoryLog();
    const { a } = twoWorkers(log);
    await runRoot(a, { runId: 'watch-3', body: 'survey', input: { issues: ['flaky API'], fail: 'flaky API' } });
    const failed = log.events.filter((e) => e.type === 'session.failed');
    expect(failed.length).toBe(2);
    for (const f of failed) expect(f.type === 'session.failed' && f.failure.message).toBe('flaky API gave up');
    const run = recordEvents(log.events.map((event) => ({ event }))).runs[0];
    expect(run?.sessions.find((s) => s.name === 'flaky API')).toMatchObject({
      status: 'failed',
      worker: 'worker-b',
      failure: { kind: 'crashed' },
    });
  });
});
