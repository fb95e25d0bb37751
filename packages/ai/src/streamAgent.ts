import { streamText } from 'ai';
import type { ToolSet } from 'ai';
import type { Session } from '@cohort/runtime';
import type { AgentOptions, AgentResult } from './AgentOptions.ts';
import { agentCall, throwIfEnded } from './internal/agentCall.ts';

/** `streamText`'s result for an agent's tool set. */
export type AgentTextStream = ReturnType<typeof streamText<ToolSet>>;

/** A streaming agent loop: the AI SDK's stream, and the loop's result once it ends. */
export interface AgentStream {
  /** `streamText`'s result: `textStream`, `fullStream`, `toUIMessageStreamResponse()`, … */
  readonly stream: AgentTextStream;
  /**
   * Resolves as {@link runAgent} does when the loop ends; rejects with the model's own error
   * (not the AI SDK's "no output") or, when the session ended, with why. Await it in the
   * session's body: a session that returns before its loop ends commits too early.
   */
  readonly result: Promise<AgentResult>;
}

/**
 * {@link runAgent}, streamed (`streamText`): the same tools, budget charges (a streamed call's
 * tokens are charged when its `finish` part arrives) and abort signal, with the text and
 * tool parts as they come.
 *
 * @example
 * await rt.run(async (s) => {
 *   const { stream, result } = streamAgent(s, { model, prompt: 'Reflect on this trace: …' });
 *   for await (const delta of stream.textStream) process.stdout.write(delta);
 *   return (await result).text;
 * });
 */
export function streamAgent(session: Session, options: AgentOptions): AgentStream {
  let failure: { readonly error: unknown } | undefined;
  const stream = streamText({
    ...agentCall(session, options),
    onError: ({ error }) => {
      failure ??= { error };
    },
  });
  const result = settle(session, stream, () => failure);
  result.catch(() => undefined); // a caller who only reads the stream must not crash the process
  return { stream, result };
}

async function settle(
  session: Session,
  stream: AgentTextStream,
  failure: () => { readonly error: unknown } | undefined,
): Promise<AgentResult> {
  let settled: [string, AgentResult['steps'], AgentResult['usage']];
  try {
    settled = await Promise.all([stream.text, stream.steps, stream.totalUsage]);
  } catch (thrown) {
    throwIfEnded(session);
    throw failure()?.error ?? thrown;
  }
  throwIfEnded(session);
  const failed = failure();
  if (failed) throw failed.error;
  const [text, steps, usage] = settled;
  return { text, steps, usage };
}
