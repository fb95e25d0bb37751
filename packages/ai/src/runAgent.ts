import { generateText } from 'ai';
import type { Session } from '@cohort/runtime';
import type { AgentOptions, AgentResult } from './AgentOptions.ts';
import { agentCall, throwIfEnded } from './internal/agentCall.ts';

/**
 * Runs an AI SDK tool loop (`generateText`) inside a session: the model gets the session's
 * Skillbook tools (writing to its private draft), and `recurse` when asked for; every model
 * call is charged to the session's budget (one request, then its tokens) and aborted by the
 * session's signal. Rejects when the model call fails or the session ends (timeout,
 * cancellation, spent budget) — inside `rt.run` or `s.spawn` that is the session's failure.
 *
 * @example
 * const outcome = await rt.run((s) => runAgent(s, { model, prompt: 'Distil a skill from this trace: …' }), { budget: { tokens: 50_000 } });
 * if (outcome.status === 'committed') console.log(outcome.output.text, outcome.added);
 */
export async function runAgent(session: Session, options: AgentOptions): Promise<AgentResult> {
  const result = await generateText(agentCall(session, options));
  throwIfEnded(session);
  return { text: result.text, steps: result.steps, usage: result.totalUsage };
}
