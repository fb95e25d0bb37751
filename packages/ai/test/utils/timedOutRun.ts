import type { MockLanguageModelV3 } from 'ai/test';
import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { Session, SessionOutcome } from '@cohort/runtime';
import { neverAnswers, scriptedModel } from './scriptedModel.ts';

/**
 * Runs `agent` in a root session with a 30 ms time limit, on a simulated clock, over a model
 * that never answers: whether the model call saw its abort signal, and how the session ended.
 */
export async function timedOutRun(
  agent: (s: Session, model: MockLanguageModelV3) => Promise<unknown>,
): Promise<{ aborted: boolean; outcome: SessionOutcome<unknown> }> {
  const clock = new SimulatedClock();
  const rt = createRuntime({ clock });
  const observed = { aborted: false };
  const model = scriptedModel((call) => neverAnswers(call, observed));
  const outcome = await clock.settle(rt.run((s) => agent(s, model), { timeoutMs: 30 }));
  await rt.close();
  return { aborted: observed.aborted, outcome };
}
