import { MockLanguageModelV3 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Content = GenerateResult['content'][number];

/** What a scripted model sees of one call. */
export interface ModelCall {
  /** The text of the first user message: which agent (task) is calling. */
  readonly task: string;
  /** 0 for the agent's first call, 1 after its first tool results, … */
  readonly step: number;
  /** The tool results the model got back, newest step last. */
  readonly toolResults: readonly { readonly toolName: string; readonly output: unknown }[];
  readonly options: CallOptions;
}

/** A reply of a scripted model: its text and tool calls, and the tokens it reports. */
export interface Reply {
  readonly text?: string;
  readonly calls?: readonly { readonly tool: string; readonly input: unknown }[];
  readonly tokens?: { readonly input: number; readonly output: number };
}

/**
 * A mock language model (the AI SDK's `MockLanguageModelV3`) that answers each call from a
 * script of the call's task and step; a script may throw (the model call fails) or return a
 * promise that never settles on its own (a model that never answers).
 */
export function scriptedModel(script: (call: ModelCall) => Reply | Promise<Reply>): MockLanguageModelV3 {
  let ids = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => toResult(await script(readCall(options)), () => `call-${++ids}`),
    doStream: async (options) => {
      const result = toResult(await script(readCall(options)), () => `call-${++ids}`);
      return { stream: streamOf(result) };
    },
  });
}

/** A script step that waits for the call's abort signal and rejects with its reason. */
export function neverAnswers(call: ModelCall, observed: { aborted: boolean }): Promise<Reply> {
  return new Promise((_, reject) => {
    call.options.abortSignal?.addEventListener('abort', () => {
      observed.aborted = true;
      reject(call.options.abortSignal?.reason);
    });
  });
}

function readCall(options: CallOptions): ModelCall {
  const user = options.prompt.find((m) => m.role === 'user');
  const first = user && Array.isArray(user.content) ? user.content[0] : undefined;
  const task = first && first.type === 'text' ? first.text : '';
  const toolResults = options.prompt.flatMap((m) =>
    m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' ? [{ toolName: p.toolName, output: p.output }] : [])) : [],
  );
  return { task, step: options.prompt.filter((m) => m.role === 'assistant').length, toolResults, options };
}

function toResult(reply: Reply, nextId: () => string): GenerateResult {
  const content: Content[] = [];
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
  for (const c of reply.calls ?? [])
    content.push({ type: 'tool-call', toolCallId: nextId(), toolName: c.tool, input: JSON.stringify(c.input) });
  const tokens = reply.tokens ?? { input: 10, output: 5 };
  return {
    content,
    finishReason: { unified: reply.calls?.length ? 'tool-calls' : 'stop', raw: undefined },
    usage: {
      inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: tokens.output, text: tokens.output, reasoning: undefined },
    },
    warnings: [],
  };
}

type StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

function streamOf(result: GenerateResult): ReadableStream<StreamPart> {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const c of result.content) {
    if (c.type === 'text')
      parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: c.text }, { type: 'text-end', id: 't' });
    if (c.type === 'tool-call') parts.push(c);
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });
}
