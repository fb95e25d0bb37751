import { wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware } from 'ai';
import { toErrorInfo } from '@cohort/runtime';
import type { CallPart, ModelCall, Session } from '@cohort/runtime';
import type { AgentModel } from '../AgentOptions.ts';
import { callMessages, callPart } from './callParts.ts';

type Usage = {
  readonly inputTokens: { readonly total: number | undefined };
  readonly outputTokens: { readonly total: number | undefined };
};
type Prompt = Parameters<typeof callMessages>[0];
type Part = Parameters<typeof callPart>[0];

/**
 * `model`, recording every call in the session (`s.record`, a `session.call` event): what the
 * call was sent that the loop's previous call was not, the answer (text, reasoning, tool
 * calls), the finish reason, the tokens and the latency; a call that fails is recorded with its
 * error. One wrapped model serves one agent loop: it counts the loop's steps.
 */
export function recordedModel(session: Session, model: AgentModel): AgentModel {
  return wrapLanguageModel({ model, middleware: recording(session, `${model.provider}/${model.modelId}`) });
}

function recording(session: Session, name: string): LanguageModelMiddleware {
  let step = 0;
  let seen = 0;
  /** The next call's record, begun: the prompt's new messages (its previous answer left out: it was recorded as output). */
  const begin = (prompt: Prompt) => {
    const fresh = prompt.slice(seen);
    seen = prompt.length;
    const input = callMessages(step > 0 && fresh[0]?.role === 'assistant' ? fresh.slice(1) : fresh);
    return { type: 'model' as const, model: name, step: step++, input, startedAt: performance.now() };
  };
  const record = (call: ReturnType<typeof begin>, end: Omit<ModelCall, 'type' | 'model' | 'step' | 'input' | 'durationMs'>) => {
    const { startedAt, ...rest } = call;
    // latency is the provider's, in wall-clock time: the session's clock may be simulated
    session.record({ ...rest, ...end, durationMs: Math.max(0, performance.now() - startedAt) });
  };
  const failed = (call: ReturnType<typeof begin>, output: CallPart[], thrown: unknown) =>
    record(call, { output, finishReason: null, usage: { inputTokens: null, outputTokens: null }, error: toErrorInfo(thrown) });
  return {
    async wrapGenerate({ doGenerate, params }) {
      const call = begin(params.prompt as Prompt);
      try {
        const result = await doGenerate();
        const output = (result.content as readonly Part[]).map(callPart);
        record(call, { output, finishReason: reasonOf(result.finishReason), usage: usageOf(result.usage) });
        return result;
      } catch (thrown) {
        failed(call, [], thrown);
        throw thrown;
      }
    },
    async wrapStream({ doStream, params }) {
      const call = begin(params.prompt as Prompt);
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await doStream();
      } catch (thrown) {
        failed(call, [], thrown);
        throw thrown;
      }
      const answer = new StreamedAnswer();
      let done = false;
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            const p = part as Part;
            if (p.type === 'finish' && !done) {
              done = true;
              record(call, { output: answer.parts(), finishReason: reasonOf(p['finishReason']), usage: usageOf(p['usage'] as Usage) });
            } else if (p.type === 'error' && !done) {
              done = true;
              failed(call, answer.parts(), p['error']);
            } else answer.add(p);
            controller.enqueue(part);
          },
          flush() {
            if (!done) failed(call, answer.parts(), new Error('the stream ended without a finish'));
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/** A streamed answer put back together: text and reasoning deltas joined, tool calls as they come. */
class StreamedAnswer {
  private readonly list: CallPart[] = [];

  add(part: Part): void {
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
      const type = part.type === 'text-delta' ? 'text' : 'reasoning';
      const last = this.list[this.list.length - 1];
      const delta = String(part['delta'] ?? '');
      if (last?.type === type) this.list[this.list.length - 1] = { type, text: last.text + delta };
      else this.list.push({ type, text: delta });
    } else if (part.type === 'tool-call' || part.type === 'file' || part.type === 'source') this.list.push(callPart(part));
  }

  parts(): CallPart[] {
    return [...this.list];
  }
}

function reasonOf(reason: unknown): string | null {
  if (typeof reason === 'string') return reason;
  const unified = (reason as { unified?: unknown } | undefined)?.unified;
  return typeof unified === 'string' ? unified : null;
}

function usageOf(usage: Usage | undefined): ModelCall['usage'] {
  return { inputTokens: usage?.inputTokens.total ?? null, outputTokens: usage?.outputTokens.total ?? null };
}
