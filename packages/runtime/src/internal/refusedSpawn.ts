import type { Clock } from '../Clock.ts';
import type { FailureSeed } from '../FailureSeed.ts';
import type { SessionId } from '../SessionId.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import type { EventSink } from './EventSink.ts';
import { failedOutcome, failureEvents, refusalFailure, spawnedEvent } from './outcomes.ts';
import type { SessionNode } from './SessionNode.ts';
import type { Tracing } from './tracing/Tracing.ts';

/** The spawn that was refused: where it would have been in the tree. */
export interface RefusedSpawn {
  readonly parent: SessionNode | null;
  readonly id: SessionId;
  readonly path: readonly SessionId[];
  readonly attempt: number;
  readonly name: string | undefined;
}

/**
 * The outcome of a spawn refused before its session existed (a limit, a spent budget, a closed
 * runtime): its failure, told as a session spawned and failed at once — in the events and as a
 * failed span — so that a refusal shows where the session would have been.
 */
export function refusedSpawn(
  deps: { readonly clock: Clock; readonly events: EventSink; readonly tracing: Tracing },
  spawn: RefusedSpawn,
  seed: FailureSeed,
): SessionOutcome {
  const { id, path, attempt, name } = spawn;
  const failure = refusalFailure(id, path, seed, attempt, deps.clock.now());
  const { events } = deps;
  if (events.listening) {
    events.emit(spawnedEvent(id, path, failure.at, attempt, name));
    for (const event of failureEvents(failure, { tokens: 0, requests: 0 })) events.emit(event);
  }
  deps.tracing.sessionRefused(spawn.parent, failure, name);
  return failedOutcome(failure);
}
