import type { ModelCall, SessionCall, ToolCall } from '@cohort/runtime';

/**
 * What a recording keeps of the model and tool calls it sees (`session.call` events):
 * - `'on'` (the default): messages, answers, tool inputs and results, each call cut to
 *   `maxCallChars` of text;
 * - `'off'`: only what is not content — the model, the step, tokens, latency, the finish
 *   reason, errors, and each tool call's name;
 * - a function: the call as it returns it (mask secrets, drop what must not be written), then
 *   cut like `'on'`; return null to leave the call out.
 */
export type RecordingContent = 'on' | 'off' | ((call: SessionCall, session: CallingSession) => SessionCall | null);

/** The session a recorded call was made in, as a redact function is told it. */
export interface CallingSession {
  readonly id: string;
  readonly path: readonly string[];
}

/** How a recording's calls were kept, as the recording says. */
export type ContentMode = 'on' | 'off' | 'redacted';

/** The default of `maxCallChars`: the text one call keeps, across its messages, inputs and results. */
export const DEFAULT_MAX_CALL_CHARS = 20_000;

/** What the recorder does to each call before it keeps it. */
export type CallPolicy = (call: SessionCall, session: CallingSession) => SessionCall | null;

/** The mode a content option stands for. */
export function contentMode(content: RecordingContent): ContentMode {
  return typeof content === 'function' ? 'redacted' : content;
}

/** The policy of a content option: redact (or strip), then bound the call's text. */
export function callPolicy(content: RecordingContent, maxCallChars = DEFAULT_MAX_CALL_CHARS): CallPolicy {
  if (content === 'off') return withoutContent;
  const redact = typeof content === 'function' ? content : null;
  return (call, session) => {
    const kept = redact ? redact(call, session) : call;
    return kept && boundCall(kept, maxCallChars);
  };
}

/** The call without its content: names, numbers and errors stay. */
function withoutContent(call: SessionCall): SessionCall {
  if (call.type === 'tool') {
    const { output: _output, ...rest } = call;
    return { ...rest, input: null };
  }
  const output = call.output.flatMap((p) => (p.type === 'tool-call' ? [{ ...p, input: null }] : []));
  return { ...call, input: [], output } satisfies ModelCall;
}

const MAX_DEPTH = 24;

/**
 * The call with at most `maxChars` characters of text in all: strings past the budget are cut,
 * with a marker saying how much was left out, so one huge prompt or result cannot make a
 * long run's report unusable. Values that are not JSON become text.
 */
export function boundCall<C extends SessionCall>(call: C, maxChars: number): C {
  const budget = { left: maxChars };
  const bound = (value: unknown, depth: number, seen: Set<object>): unknown => {
    if (typeof value === 'string') return cut(value, budget);
    if (value === null || typeof value === 'number' || typeof value === 'boolean' || value === undefined) return value;
    if (typeof value !== 'object') return cut(String(value), budget);
    if (seen.has(value) || depth > MAX_DEPTH) return '[…]';
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function') return bound(json.call(value), depth + 1, seen);
    seen.add(value);
    const out = Array.isArray(value)
      ? value.map((v) => bound(v, depth + 1, seen))
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bound(v, depth + 1, seen)]));
    seen.delete(value);
    return out;
  };
  if (call.type === 'tool') {
    const tool: ToolCall = { ...call, input: bound(call.input, 0, new Set()) };
    if ('output' in call) tool.output = bound(call.output, 0, new Set());
    return tool as C;
  }
  return { ...call, input: bound(call.input, 0, new Set()), output: bound(call.output, 0, new Set()) } as C;
}

function cut(text: string, budget: { left: number }): string {
  if (text.length <= budget.left) {
    budget.left -= text.length;
    return text;
  }
  const keep = Math.max(0, budget.left);
  budget.left = 0;
  return `${text.slice(0, keep)}…[${text.length - keep} more characters not recorded]`;
}
