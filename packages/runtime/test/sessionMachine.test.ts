import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, initialTransition, setup, transition } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { sessionMachine, sessionStateOf } from '../src/sessionMachine.ts';
import type { SessionInput, SessionMachineEvent } from '../src/sessionMachine.ts';
import { failureSeed } from '../src/FailureSeed.ts';
import { DEADLINE_WATCHER_ID } from '../src/deadlineWatcher.ts';
import type { DeadlineEvent } from '../src/deadlineWatcher.ts';
import { formatSessionId } from '../src/SessionId.ts';

type Snapshot = SnapshotFrom<typeof sessionMachine>;
type Action = { type: string; params?: unknown };

const s1 = formatSessionId('t', 1);
const s2 = formatSessionId('t', 2);

function start(input: Partial<SessionInput> = {}): [Snapshot, Action[]] {
  return initialTransition(sessionMachine, { sessionId: s1, path: [s1], ...input }) as [Snapshot, Action[]];
}

/** Feeds events one after the other; the last step's snapshot and actions. */
function feed(snapshot: Snapshot, ...events: SessionMachineEvent[]): [Snapshot, Action[]] {
  let step: [Snapshot, Action[]] = [snapshot, []];
  for (const event of events) step = transition(sessionMachine, step[0], event) as [Snapshot, Action[]];
  return step;
}

const emitted = (actions: Action[]) =>
  actions.filter((a) => a.type === 'xstate.emit').map((a) => (a.params as { event: { type: string } }).event.type);

const merged: SessionMachineEvent = { type: 'MERGED', revision: 3, ops: 2, added: [], dropped: [] };
const conflict: SessionMachineEvent = { type: 'REJECTED', failure: failureSeed('conflict', 'UPDATE context-00001: removed at revision 2') };

describe('sessionMachine - the lifecycle', () => {
  it('sessionMachine - a session starts running, with its id, path, depth and name in its context', () => {
    const [snapshot] = start({ path: [s1, s2], sessionId: s2, name: 'writer' });
    expect(snapshot.value).toEqual({ live: 'running' });
    expect(sessionStateOf(snapshot)).toBe('running');
    expect(snapshot.context).toMatchObject({
      sessionId: s2,
      path: [s1, s2],
      depth: 1,
      name: 'writer',
      rules: { attempt: 1 },
      failure: null,
    });
    expect(snapshot.output).toBeUndefined();
  });

  it('sessionMachine - a body that returns with no live children commits at once, and tells the runtime', () => {
    const [running] = start();
    const [committing, actions] = feed(running, { type: 'BODY_DONE', output: 'out', liveChildren: 0 });
    expect(sessionStateOf(committing)).toBe('committing');
    expect(emitted(actions)).toEqual(['commit']);
  });

  it('sessionMachine - a body that returns with live children drains first, then commits', () => {
    const [running] = start();
    const [draining, drainActions] = feed(running, { type: 'BODY_DONE', output: 1, liveChildren: 2 });
    expect(sessionStateOf(draining)).toBe('draining');
    expect(emitted(drainActions)).toEqual([]);
    const [committing, actions] = feed(draining, { type: 'CHILDREN_SETTLED' });
    expect(sessionStateOf(committing)).toBe('committing');
    expect(emitted(actions)).toEqual(['commit']);
  });

  it("sessionMachine - MERGED carries the verdict into the final committed state, as the machine's output", () => {
    const [running] = start();
    const [committed, actions] = feed(running, { type: 'BODY_DONE', output: 'x', liveChildren: 0 }, merged);
    expect(committed.value).toBe('committed');
    expect(committed.status).toBe('done');
    expect(committed.output).toEqual({ revision: 3, ops: 2, added: [], dropped: [] });
    expect(emitted(actions)).toEqual(['settled']);
  });

  it('sessionMachine - a throwing body fails as a crash in the error category, with its cause chain', () => {
    const [running] = start();
    const [failed, actions] = feed(running, { type: 'BODY_FAILED', error: new Error('outer', { cause: new Error('inner') }) });
    expect(failed.value).toBe('failed');
    expect(failed.context.failure).toMatchObject({
      kind: 'crashed',
      category: 'error',
      message: 'outer',
      error: { cause: { message: 'inner' } },
    });
    expect(emitted(actions)).toEqual(['settled']);
  });

  it('sessionMachine - a runtime defect fails the session in the defect category, from any live state', () => {
    const [running] = start();
    const [committing] = feed(running, { type: 'BODY_DONE', output: 1, liveChildren: 0 });
    for (const from of [running, committing]) {
      const [failed] = feed(from, { type: 'DEFECT', message: 'runtime defect while committing' });
      expect(failed.context.failure).toMatchObject({ kind: 'crashed', category: 'defect' });
    }
  });

  it('sessionMachine - an abort and a cancellation are interruptions', () => {
    const [running] = start();
    expect(feed(running, { type: 'ABORT', reason: 'not needed' })[0].context.failure).toMatchObject({
      kind: 'aborted',
      category: 'interruption',
      message: 'not needed',
    });
    expect(feed(running, { type: 'CANCEL', reason: 'runtime closed' })[0].context.failure).toMatchObject({
      kind: 'cancelled',
      category: 'interruption',
    });
  });

  it('sessionMachine - a charge over budget fails as budget_exhausted, an error', () => {
    const [running] = start();
    const [failed] = feed(running, { type: 'OVER_BUDGET', message: 'budget exhausted: asked for 10 tokens with 5 left' });
    expect(failed.context.failure).toMatchObject({ kind: 'budget_exhausted', category: 'error' });
  });

  it("sessionMachine - once the commit is in the parent's hands, only a verdict, a cancellation or a defect ends it", () => {
    const [running] = start({ timeoutMs: 10 });
    const [committing] = feed(running, { type: 'BODY_DONE', output: 1, liveChildren: 0 });
    for (const event of [{ type: 'TIMEOUT' }, { type: 'ABORT', reason: 'late' }, { type: 'CHILDREN_SETTLED' }] as const) {
      expect(sessionStateOf(feed(committing, event)[0])).toBe('committing');
    }
    expect(feed(committing, { type: 'CANCEL', reason: 'parent ended' })[0].value).toBe('failed');
  });
});

describe('sessionMachine - deadlines on the runtime clock', () => {
  /** A session actor in a system whose deadline watcher records what it is told. */
  function withWatcher(input: Partial<SessionInput>) {
    const told: string[] = [];
    const recorder = fromCallback<DeadlineEvent>(({ receive }) => {
      receive((e) => told.push(e.type === 'ARM' ? `ARM ${e.timeoutMs} ${e.wallClockMs}` : 'DISARM'));
    });
    const root = createActor(setup({}).createMachine({})).start();
    createActor(recorder, { systemId: DEADLINE_WATCHER_ID, parent: root }).start();
    const session = createActor(sessionMachine, { parent: root, input: { sessionId: s1, path: [s1], ...input } }).start();
    return { told, session };
  }

  it("sessionMachine - a timeout or a wall-clock budget is armed with the runtime's deadline watcher at the start", () => {
    expect(withWatcher({ timeoutMs: 50, wallClockMs: 80 }).told).toEqual(['ARM 50 80']);
    expect(withWatcher({ wallClockMs: 80 }).told).toEqual(['ARM undefined 80']);
  });

  it('sessionMachine - a session without deadlines arms nothing', () => {
    const { told, session } = withWatcher({});
    session.send({ type: 'BODY_DONE', output: 1, liveChildren: 0 });
    expect(told).toEqual([]);
  });

  it('sessionMachine - the deadlines are disarmed once the commit leaves, and when the session fails', () => {
    const committing = withWatcher({ timeoutMs: 50 });
    committing.session.send({ type: 'BODY_DONE', output: 1, liveChildren: 1 });
    expect(committing.told).toEqual(['ARM 50 undefined']);
    committing.session.send({ type: 'CHILDREN_SETTLED' });
    expect(committing.told).toEqual(['ARM 50 undefined', 'DISARM']);
    const failing = withWatcher({ timeoutMs: 50 });
    failing.session.send({ type: 'ABORT', reason: 'x' });
    expect(failing.told).toEqual(['ARM 50 undefined', 'DISARM']);
  });

  it('sessionMachine - TIMEOUT fails a running or draining session as an interruption', () => {
    const [running] = start({ timeoutMs: 50 });
    const [draining] = feed(running, { type: 'BODY_DONE', output: 1, liveChildren: 1 });
    for (const from of [running, draining]) {
      expect(feed(from, { type: 'TIMEOUT' })[0].context.failure).toEqual({
        kind: 'timeout',
        category: 'interruption',
        message: 'timed out after 50 ms',
      });
    }
  });

  it('sessionMachine - WALL_CLOCK exhausts the budget, as an interruption', () => {
    const [running] = start({ wallClockMs: 500 });
    expect(feed(running, { type: 'WALL_CLOCK' })[0].context.failure).toEqual({
      kind: 'budget_exhausted',
      category: 'interruption',
      message: 'wall-clock budget of 500 ms exhausted',
    });
  });
});

describe('sessionMachine - retries', () => {
  it('sessionMachine - a failure the rule lists waits in retrying until the next attempt has started', () => {
    const [running] = start({ retry: { attempts: 2 } });
    const [retrying, actions] = feed(running, { type: 'BODY_DONE', output: 1, liveChildren: 0 }, conflict);
    expect(retrying.value).toBe('retrying');
    expect(retrying.status).toBe('active');
    expect(retrying.context.failure?.kind).toBe('conflict');
    expect(emitted(actions)).toEqual(['retry']);
    const [retried] = feed(retrying, { type: 'RETRIED', next: s2 });
    expect(retried.value).toBe('retried');
    expect(retried.status).toBe('done');
    expect(retried.context.failure?.kind).toBe('conflict');
  });

  it('sessionMachine - a kind the rule does not list, or the last attempt, fails for good', () => {
    const [unlisted] = start({ retry: { attempts: 2, on: ['timeout'] } });
    expect(feed(unlisted, { type: 'BODY_FAILED', error: 'x' })[0].value).toBe('failed');
    const [last] = start({ retry: { attempts: 2 }, attempt: 3 });
    expect(feed(last, { type: 'BODY_FAILED', error: 'x' })[0].value).toBe('failed');
    const [second] = start({ retry: { attempts: 2 }, attempt: 2 });
    expect(feed(second, { type: 'BODY_FAILED', error: 'x' })[0].value).toBe('retrying');
  });

  it('sessionMachine - a cancellation is never retried: the parent is going away', () => {
    const [running] = start({ retry: { attempts: 3, on: ['cancelled'] } });
    expect(feed(running, { type: 'CANCEL', reason: 'parent ended' })[0].value).toBe('failed');
  });
});
