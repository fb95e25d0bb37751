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
  | { type: 'DISARM'; session: AnyActorRef }
  /** Send `session` its deadline at once if the clock has passed it (a body that never lets a timer fire). */
  | { type: 'CHECK'; session: AnyActorRef };

type Deadline = { readonly type: 'TIMEOUT' | 'WALL_CLOCK'; readonly at: number };

/**
 * One actor per runtime that keeps every session's deadlines on the runtime's clock (so a
 * simulation runs them on virtual time) and sends `TIMEOUT` or `WALL_CLOCK` to the session
 * when one passes. Sessions arm and disarm it with events, so the inspector shows both. A timer
 * fires only when the event loop gets a turn, and a body that never yields one (a model that
 * answers at once, in a loop) would outrun it: its session sends `CHECK` as its body calls in
 * (a tool, a batch, a charge), and a deadline the clock has passed is sent then.
 *
 * Not xstate's delayed events (`after`): on every actor stop, xstate's scheduler scans every
 * delayed event of the whole actor system, so 10,000 live sessions with a timeout each cost
 * O(N²) — 3.4× the CPU time of a 10k fan-out. Nor a watcher actor per session: a fan-out of
 * 10k timed children then costs 1.25× as much.
 */
export const deadlineWatcher = fromCallback<DeadlineEvent, { readonly clock: Clock }>(({ input, receive }) => {
  const { clock } = input;
  const armed = new Map<AnyActorRef, { readonly timers: unknown[]; readonly deadlines: Deadline[] }>();
  const disarm = (session: AnyActorRef) => {
    for (const timer of armed.get(session)?.timers ?? []) clock.clearTimeout(timer);
    armed.delete(session);
  };
  const fire = (session: AnyActorRef, type: Deadline['type']) => () => {
    disarm(session);
    session.send({ type });
  };
  const arm = (session: AnyActorRef, timeoutMs: number | undefined, wallClockMs: number | undefined) => {
    const deadlines: Deadline[] = [];
    if (timeoutMs !== undefined) deadlines.push({ type: 'TIMEOUT', at: clock.now() + timeoutMs });
    if (wallClockMs !== undefined) deadlines.push({ type: 'WALL_CLOCK', at: clock.now() + wallClockMs });
    deadlines.sort((a, b) => a.at - b.at);
    const timers = deadlines.map(({ type, at }) => clock.setTimeout(fire(session, type), at - clock.now()));
    armed.set(session, { timers, deadlines });
  };
  receive((event) => {
    if (event.type === 'ARM') arm(event.session, event.timeoutMs, event.wallClockMs);
    else if (event.type === 'DISARM') disarm(event.session);
    else {
      const passed = armed.get(event.session)?.deadlines.find(({ at }) => at <= clock.now());
      if (passed) fire(event.session, passed.type)();
    }
  });
  return () => {
    for (const session of [...armed.keys()]) disarm(session);
  };
});
