import { wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware } from 'ai';
import type { Session } from '@cohort/runtime';
import type { AgentModel } from '../AgentOptions.ts';
import { callRecorderOf } from '../callRecorder.ts';
import { recordedGenerate, recordedStream } from './recordedCalls.ts';

type ModelUsage = {
  readonly inputTokens: { readonly total: number | undefined };
  readonly outputTokens: { readonly total: number | undefined };
};

/**
 * `model`, charging every call to the session's budget: one request before the call (none is
 * made once the budget is spent) and the call's tokens as soon as its response (or, streamed,
 * its `finish` part) arrives, before any tool of that step runs. A refused charge fails the
 * session as `budget_exhausted` (the runtime does that) and throws here, which ends the loop.
 * A session with a call recorder (a durable session) records each call's reply, and a run of
 * it after a crash gets the recorded reply instead of a call — charged again, as its runtime's
 * budget is new.
 */
export function chargedModel(session: Session, model: AgentModel): AgentModel {
  return wrapLanguageModel({ model, middleware: charging(session) });
}

function charging(session: Session): LanguageModelMiddleware {
  const record = callRecorderOf(session);
  return {
    async wrapGenerate({ doGenerate }) {
      spend(session, { requests: 1 });
      const result = record ? await recordedGenerate(record, doGenerate) : await doGenerate();
      spend(session, { tokens: tokensOf(result.usage) });
      return result;
    },
    async wrapStream({ doStream }) {
      spend(session, { requests: 1 });
      const result = record ? await recordedStream(record, doStream) : await doStream();
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            if (part.type === 'finish') spend(session, { tokens: tokensOf(part.usage) });
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

function spend(session: Session, usage: { tokens?: number; requests?: number }): void {
  if (session.signal.aborted) throw endedError(session, 'the session has ended');
  const charged = session.charge(usage);
  if (!charged.ok) throw endedError(session, charged.message);
}

function endedError(session: Session, message: string): Error {
  return new Error(`model call refused: ${message}`, { cause: session.signal.reason });
}

function tokensOf(usage: ModelUsage): number {
  return (usage.inputTokens.total ?? 0) + (usage.outputTokens.total ?? 0);
}
