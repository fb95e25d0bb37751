import { fromCallback } from 'xstate';
import type { AnyActorRef } from 'xstate';
import type { Clock } from './Clock.ts';

/** The system id of the runtime's deadline watcher. */
export const DEADLINE_WATCHER_ID = 'cohort.deadlines';

/** What the deadline watcher takes from sessions. */
export type DeadlineEvent =
  /** Arm `session`'s deadlines: `TIMEOUT` after `timeoutMs`, `WALL_CLOCK` after `wallClockMs`. */
  | { type: 'ARM'; session: AnyActorRef; timeoutMs: number | undefined; wallClockMs: number | undefined }
  /** Disarm them: the session's commit has left, or it failed. */
  | { type: 'DISARM'; session: AnyActorRef };

/**
 * One actor per runtime that keeps every session's deadlines on the runtime's clock (so a
 * simulation runs them on virtual time) and sends `TIMEOUT` or `WALL_CLOCK` to the session
 * when one passes. Sessions arm and disarm it with events, so the inspector shows both.
 *
 * Not xstate's delayed events (`after`): on every actor stop, xstate's scheduler scans every
 * delayed event of the whole actor system, so 10,000 live sessions with a timeout each cost
 * O(N²) — 3.4× the CPU time of a 10k fan-out. Nor a watcher actor per session: a fan-out of
 * 10k timed children then costs 1.25× as much.
 */
export const deadlineWatcher = fromCallback<DeadlineEvent, { readonly clock: Clock }>(({ input, receive }) => {
  const { clock } = input;
  const armed = new Map<AnyActorRef, unknown[]>();
  const disarm = (session: AnyActorRef) => {
    for (const timer of armed.get(session) ?? []) clock.clearTimeout(timer);
    armed.delete(session);
  };
  const fire = (session: AnyActorRef, type: 'TIMEOUT' | 'WALL_CLOCK') => () => {
    disarm(session);
    session.send({ type });
  };
  receive((event) => {
    if (event.type === 'DISARM') {
      disarm(event.session);
      return;
    }
    const timers: unknown[] = [];
    if (event.timeoutMs !== undefined) timers.push(clock.setTimeout(fire(event.session, 'TIMEOUT'), event.timeoutMs));
    if (event.wallClockMs !== undefined) timers.push(clock.setTimeout(fire(event.session, 'WALL_CLOCK'), event.wallClockMs));
    armed.set(event.session, timers);
  });
  return () => {
    for (const session of [...armed.keys()]) disarm(session);
  };
});
