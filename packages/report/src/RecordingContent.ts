import { SessionCallSchema } from '@cohort/runtime';
import type { CallPart, ModelCall, SessionCall, ToolCall } from '@cohort/runtime';

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

/**
 * What a recording keeps of a recorded call: the policy's result, or why the call was left out.
 * `s.record` may be called by untyped code, and a redact function may return anything or
 * throw: a call of the wrong shape, before or after the policy, is left out (it would make the
 * whole recording unreadable), and the message says what was wrong.
 */
export function keptCall(
  policy: CallPolicy,
  raw: unknown,
  session: CallingSession,
): { readonly ok: true; readonly call: SessionCall | null } | { readonly ok: false; readonly message: string } {
  const given = SessionCallSchema.safeParse(raw);
  if (!given.success) return { ok: false, message: `a call recorded by session ${session.id} was left out: ${firstIssue(given.error)}` };
  let kept: SessionCall | null;
  try {
    kept = policy(given.data, session);
  } catch (thrown) {
    const why = thrown instanceof Error ? thrown.message : String(thrown);
    return { ok: false, message: `a call of session ${session.id} was left out: the redact function threw (${why})` };
  }
  if (kept === null) return { ok: true, call: null };
  const checked = SessionCallSchema.safeParse(kept);
  if (!checked.success)
    return {
      ok: false,
      message: `a call of session ${session.id} was left out: the redact function returned ${firstIssue(checked.error)}`,
    };
  return { ok: true, call: checked.data };
}

function firstIssue(error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || '(call)'}: ${issue.message}` : 'an invalid call';
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
 * The call with at most `maxChars` characters of content in all — texts, tool inputs and
 * results, in that order — so one huge prompt or result cannot make a long run's report
 * unusable: strings past the budget are cut, with a marker saying how much was left out. Names,
 * roles and ids are never cut. Values that are not JSON become text.
 */
export function boundCall<C extends SessionCall>(call: C, maxChars: number): C {
  const budget = { left: maxChars };
  const value = (v: unknown): unknown => bound(v, budget, 0, new Set());
  if (call.type === 'tool') {
    const tool: ToolCall = { ...call, input: value(call.input) };
    if ('output' in call) tool.output = value(call.output);
    return tool as C;
  }
  const part = (p: CallPart): CallPart => {
    switch (p.type) {
      case 'tool-call':
        return { ...p, input: value(p.input) };
      case 'tool-result':
        return { ...p, output: value(p.output) };
      default:
        return { ...p, text: cut(p.text, budget) };
    }
  };
  const input = call.input.map((m) => ({ ...m, parts: m.parts.map(part) }));
  return { ...call, input, output: call.output.map(part) } as C;
}

function bound(value: unknown, budget: { left: number }, depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return cut(value, budget);
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || value === undefined) return value;
  if (typeof value !== 'object') return cut(String(value), budget);
  if (seen.has(value) || depth > MAX_DEPTH) return '[…]';
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === 'function') return bound(json.call(value), budget, depth + 1, seen);
  seen.add(value);
  const out = Array.isArray(value)
    ? value.map((v) => bound(v, budget, depth + 1, seen))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bound(v, budget, depth + 1, seen)]));
  seen.delete(value);
  return out;
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
