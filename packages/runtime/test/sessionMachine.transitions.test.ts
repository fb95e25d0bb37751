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

/** Every event a session machine takes, each named as a sentence would name it. */
const EVENTS: readonly [string, SessionMachineEvent][] = [
  ['a returned body (no live children)', { type: 'BODY_DONE', output: 1, liveChildren: 0 }],
  ['a returned body with live children', { type: 'BODY_DONE', output: 1, liveChildren: 2 }],
  ['a body that threw', { type: 'BODY_FAILED', error: new Error('boom') }],
  ['the last child settling', { type: 'CHILDREN_SETTLED' }],
  ['a timeout', { type: 'TIMEOUT' }],
  ['a spent wall-clock budget', { type: 'WALL_CLOCK' }],
  ['an abort', { type: 'ABORT', reason: 'not needed' }],
  ['a charge over budget', { type: 'OVER_BUDGET', message: 'budget exhausted' }],
  ['a cancel', { type: 'CANCEL', reason: 'parent ended' }],
  ['a runtime defect', { type: 'DEFECT', message: 'runtime defect while committing' }],
  ['a merge', { type: 'MERGED', revision: 3, ops: 1, added: [], dropped: [] }],
  ['a rejection', { type: 'REJECTED', failure: failureSeed('conflict', 'UPDATE context-00001: removed at revision 2') }],
  ['the next attempt starting', { type: 'RETRIED', next: formatSessionId('t', 2) }],
];

/** What an event does to a session in a state: ignored, a move to another state, or a failure of a kind. */
type Effect = 'ignored' | { readonly to: SessionState } | { readonly fails: FailureKind };

const failsAs = (kind: FailureKind): Effect => ({ fails: kind });
const to = (state: SessionState): Effect => ({ to: state });

/** The whole transition table of the live states, and of `retrying`: every state against every event, in EVENTS' order. */
const TABLE: Record<'running' | 'draining' | 'committing' | 'retrying', readonly Effect[]> = {
  running: [
    to('committing'),
    to('draining'),
    failsAs('crashed'),
    'ignored',
    failsAs('timeout'),
    failsAs('budget_exhausted'),
    failsAs('aborted'),
    failsAs('budget_exhausted'),
    failsAs('cancelled'),
    failsAs('crashed'),
    'ignored',
    'ignored',
    'ignored',
  ],
  draining: [
    'ignored',
    'ignored',
    'ignored',
    to('committing'),
    failsAs('timeout'),
    failsAs('budget_exhausted'),
    failsAs('aborted'),
    'ignored',
    failsAs('cancelled'),
    failsAs('crashed'),
    'ignored',
    'ignored',
    'ignored',
  ],
  committing: [
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    failsAs('cancelled'),
    failsAs('crashed'),
    to('committed'),
    failsAs('conflict'),
    'ignored',
  ],
  retrying: [
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    'ignored',
    failsAs('crashed'),
    'ignored',
    'ignored',
    to('retried'),
  ],
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
  for (const [state, effects] of Object.entries(TABLE) as [keyof typeof TABLE, readonly Effect[]][]) {
    EVENTS.forEach(([name, event], i) => {
      const effect = effects[i] ?? 'ignored';
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
    });
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
    for (const [, event] of EVENTS) expect(sessionStateOf(transition(sessionMachine, committed, event)[0] as Snapshot)).toBe('committed');
  });
});
