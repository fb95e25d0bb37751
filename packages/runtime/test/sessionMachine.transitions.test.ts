import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { sessionMachine, sessionStateOf } from '../src/sessionMachine.ts';
import type { SessionMachineEvent, SessionState } from '../src/sessionMachine.ts';
import { failureSeed } from '../src/FailureSeed.ts';
import type { FailureKind } from '../src/SessionFailure.ts';
import { formatSessionId } from '../src/SessionId.ts';

type Snapshot = SnapshotFrom<typeof sessionMachine>;

const s1 = formatSessionId('t', 1);

/** Every event a session machine takes, each with a short key and named as a sentence would name it. */
const EVENTS = {
  returned: ['a returned body (no live children)', { type: 'BODY_DONE', output: 1, liveChildren: 0 }],
  returnedWithChildren: ['a returned body with live children', { type: 'BODY_DONE', output: 1, liveChildren: 2 }],
  threw: ['a body that threw', { type: 'BODY_FAILED', error: new Error('boom') }],
  childrenSettled: ['the last child settling', { type: 'CHILDREN_SETTLED' }],
  timeout: ['a timeout', { type: 'TIMEOUT' }],
  wallClock: ['a spent wall-clock budget', { type: 'WALL_CLOCK' }],
  abort: ['an abort', { type: 'ABORT', reason: 'not needed' }],
  overBudget: ['a charge over budget', { type: 'OVER_BUDGET', message: 'budget exhausted' }],
  cancel: ['a cancel', { type: 'CANCEL', reason: 'parent ended' }],
  defect: ['a runtime defect', { type: 'DEFECT', message: 'runtime defect while committing' }],
  merged: ['a merge', { type: 'MERGED', revision: 3, ops: 1, added: [], dropped: [] }],
  rejected: ['a rejection', { type: 'REJECTED', failure: failureSeed('conflict', 'UPDATE context-00001: removed at revision 2') }],
  retried: ['the next attempt starting', { type: 'RETRIED', next: formatSessionId('t', 2) }],
} satisfies Record<string, [string, SessionMachineEvent]>;

/** What an event does to a session in a state: ignored, a move to another state, or a failure of a kind. */
type Effect = 'ignored' | { readonly to: SessionState } | { readonly fails: FailureKind };

const failsAs = (kind: FailureKind): Effect => ({ fails: kind });
const to = (state: SessionState): Effect => ({ to: state });

/**
 * The whole transition table of the live states, and of `retrying`: what each event does in
 * each state. Every event a state does not list is ignored there (the tests check that too).
 */
const TABLE: Record<'running' | 'draining' | 'committing' | 'retrying', Partial<Record<keyof typeof EVENTS, Effect>>> = {
  running: {
    returned: to('committing'),
    returnedWithChildren: to('draining'),
    threw: failsAs('crashed'),
    timeout: failsAs('timeout'),
    wallClock: failsAs('budget_exhausted'),
    abort: failsAs('aborted'),
    overBudget: failsAs('budget_exhausted'),
    cancel: failsAs('cancelled'),
    defect: failsAs('crashed'),
  },
  draining: {
    childrenSettled: to('committing'),
    timeout: failsAs('timeout'),
    wallClock: failsAs('budget_exhausted'),
    abort: failsAs('aborted'),
    cancel: failsAs('cancelled'),
    defect: failsAs('crashed'),
  },
  committing: {
    cancel: failsAs('cancelled'),
    defect: failsAs('crashed'),
    merged: to('committed'),
    rejected: failsAs('conflict'),
  },
  retrying: {
    defect: failsAs('crashed'),
    retried: to('retried'),
  },
};

/** A session in `state`, with a timeout and a wall-clock budget (a `retrying` one after a crash its rule retries; no other retries). */
function sessionIn(state: keyof typeof TABLE): Snapshot {
  const retry = state === 'retrying' ? { attempts: 1, on: ['crashed'] } : undefined;
  const [running] = initialTransition(sessionMachine, { sessionId: s1, path: [s1], timeoutMs: 50, wallClockMs: 80, retry });
  const steps: Record<keyof typeof TABLE, SessionMachineEvent[]> = {
    running: [],
    draining: [{ type: 'BODY_DONE', output: 1, liveChildren: 1 }],
    committing: [{ type: 'BODY_DONE', output: 1, liveChildren: 0 }],
    retrying: [{ type: 'BODY_FAILED', error: new Error('flaky') }],
  };
  let snapshot = running as Snapshot;
  for (const event of steps[state]) snapshot = transition(sessionMachine, snapshot, event)[0] as Snapshot;
  return snapshot;
}

function sentence(effect: Effect): string {
  if (effect === 'ignored') return 'is ignored';
  if ('to' in effect) return `moves the session to ${effect.to}`;
  return `fails the session as ${effect.fails}`;
}

describe('sessionMachine - every live state against every event', () => {
  for (const [state, effects] of Object.entries(TABLE) as [keyof typeof TABLE, (typeof TABLE)[keyof typeof TABLE]][]) {
    for (const [key, [name, event]] of Object.entries(EVENTS) as [keyof typeof EVENTS, [string, SessionMachineEvent]][]) {
      const effect = effects[key] ?? 'ignored';
      it(`sessionMachine - ${name} while ${state} ${sentence(effect)}`, () => {
        const before = sessionIn(state);
        expect(sessionStateOf(before)).toBe(state);
        const [after] = transition(sessionMachine, before, event) as [Snapshot, unknown];
        if (effect === 'ignored') {
          expect(sessionStateOf(after)).toBe(state);
          expect(after.context.failure).toEqual(before.context.failure);
        } else if ('to' in effect) {
          expect(sessionStateOf(after)).toBe(effect.to);
        } else {
          expect(sessionStateOf(after)).toBe('failed');
          expect(after.context.failure?.kind).toBe(effect.fails);
        }
      });
    }
  }

  it('sessionMachine - a settled session takes no more events', () => {
    const committed = transition(sessionMachine, sessionIn('committing'), {
      type: 'MERGED',
      revision: 1,
      ops: 0,
      added: [],
      dropped: [],
    })[0] as Snapshot;
    expect(committed.status).toBe('done');
    for (const [, event] of Object.values(EVENTS))
      expect(sessionStateOf(transition(sessionMachine, committed, event)[0] as Snapshot)).toBe('committed');
  });
});
