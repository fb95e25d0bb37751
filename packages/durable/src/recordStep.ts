import type { Session } from '@cohort/runtime';
import { DurableSession } from './internal/DurableSession.ts';

/**
 * Runs `run` as a recorded step of a durable session — a model call, a request to another
 * service, anything that costs or changes something outside: when the session runs again
 * after a crash, it gets the recorded value and `run` is not called again (paid once). The
 * value must be plain JSON data (`DURABLE_UNSERIALISABLE` otherwise). Outside a durable
 * session it just runs `run`. Steps are numbered per session in the order the body calls
 * them, so a body calls its steps in the same order every time.
 *
 * @example
 * async function research(s: Session<{ topic: string }>) {
 *   const answer = await recordStep(s, 'ask the model', () => askModel(s.input.topic));
 *   return s.tools.add_skill({ section: 'harness', issue: s.input.topic, insight: answer });
 * }
 */
export function recordStep<T>(session: Session, name: string, run: () => Promise<T>): Promise<T> {
  return session instanceof DurableSession ? session.step(name, run) : run();
}
