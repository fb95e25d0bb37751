import type { CallMessage, CallPart } from '@cohort/runtime';
import type { ModelCallRecord, SessionRecord, ToolCallRecord } from '../src/Recording.ts';
import { h } from './dom.ts';
import { duration, plural } from './format.ts';

/** What a recording kept of calls (`Recording.content`). */
export type ContentMode = 'on' | 'off' | 'redacted';

/**
 * A session's model calls (`data-testid="model-call"`), each with the messages it was sent,
 * its answer, and its tool calls with their inputs and the results they got
 * (`data-testid="tool-call"`); then the session's tool runs the model calls do not name.
 */
export function renderCalls(session: SessionRecord, content: ContentMode): HTMLElement | null {
  if (session.modelCalls.length === 0 && session.toolCalls.length === 0) return null;
  const runs = new Map(session.toolCalls.map((t) => [t.toolCallId, t]));
  const named = new Set<string>();
  const calls = session.modelCalls.map((call) => modelCall(call, runs, named));
  const loose = session.toolCalls.filter((t) => !named.has(t.toolCallId));
  const tokens = session.modelCalls.reduce(
    (sum, c) => ({ in: sum.in + (c.usage.inputTokens ?? 0), out: sum.out + (c.usage.outputTokens ?? 0) }),
    { in: 0, out: 0 },
  );
  return h(
    'div',
    { class: 'calls', 'data-testid': 'calls' },
    h('h3', {}, 'Model calls'),
    h(
      'p',
      { class: 'muted' },
      `${plural(session.modelCalls.length, 'call')}, ${tokens.in} tokens in, ${tokens.out} out, ${plural(session.toolCalls.length, 'tool call')}.`,
      content === 'off' ? ' Their content was not recorded.' : content === 'redacted' ? ' Redacted when recorded.' : '',
    ),
    ...calls,
    loose.length > 0 ? h('h4', {}, 'Other tool calls') : null,
    ...loose.map((t) => toolCall(t.toolName, t.toolCallId, t.input, t)),
  );
}

function modelCall(call: ModelCallRecord, runs: ReadonlyMap<string, ToolCallRecord>, named: Set<string>): HTMLElement {
  const usage = `${call.usage.inputTokens ?? '?'} in / ${call.usage.outputTokens ?? '?'} out`;
  const outcome = call.error ? `failed: ${call.error.message}` : (call.finishReason ?? '—');
  const parts = call.output.map((part) => {
    if (part.type !== 'tool-call') return partElement(part);
    named.add(part.toolCallId);
    return toolCall(part.toolName, part.toolCallId, part.input, runs.get(part.toolCallId));
  });
  return h(
    'details',
    { class: `model-call${call.error ? ' failed' : ''}`, 'data-testid': 'model-call', 'data-step': call.step, open: true },
    h(
      'summary',
      {},
      h('b', {}, `step ${call.step}`),
      ` · ${call.model} · `,
      h('span', { class: 'finish' }, outcome),
      ` · ${usage} tokens · ${duration(call.durationMs)}`,
    ),
    call.input.length > 0 ? h('div', { class: 'messages' }, ...call.input.map(messageElement)) : null,
    h('div', { class: 'answer', 'data-testid': 'answer' }, h('span', { class: 'role' }, 'answer'), ...parts),
  );
}

function messageElement(message: CallMessage): HTMLElement {
  return h(
    'div',
    { class: `message role-${message.role}`, 'data-role': message.role },
    h('span', { class: 'role' }, message.role),
    ...message.parts.map(partElement),
  );
}

function partElement(part: CallPart): HTMLElement {
  switch (part.type) {
    case 'text':
      return h('pre', { class: 'text' }, part.text);
    case 'reasoning':
      return h('pre', { class: 'text reasoning' }, part.text);
    case 'tool-call':
      return h('div', { class: 'tool-ref' }, `calls ${part.toolName} `, json(part.input));
    case 'tool-result':
      return h('div', { class: `tool-ref${part.isError ? ' error' : ''}` }, `${part.toolName} → `, json(part.output));
    default:
      return h('span', { class: 'muted' }, part.text);
  }
}

function toolCall(name: string, id: string, input: unknown, run: ToolCallRecord | undefined): HTMLElement {
  const error = run?.error ?? refusalOf(run?.output);
  return h(
    'div',
    { class: `tool-call${error ? ' failed' : ''}`, 'data-testid': 'tool-call', 'data-tool': name, 'data-call-id': id },
    h('b', {}, name),
    run ? h('span', { class: 'muted' }, ` ${duration(run.durationMs)}`) : h('span', { class: 'muted' }, ' (not run)'),
    h('div', {}, h('span', { class: 'label' }, 'input '), json(input)),
    run && 'output' in run ? h('div', {}, h('span', { class: 'label' }, 'result '), json(run.output)) : null,
    run?.error ? h('div', { class: 'error' }, `threw ${run.error.name}: ${run.error.message}`) : null,
  );
}

/** A refused Skillbook call answers `{ error }`: the call ran, and the tool said no. */
function refusalOf(output: unknown): { message: string } | null {
  return typeof output === 'object' && output !== null && 'error' in output ? { message: String(output.error) } : null;
}

function json(value: unknown): HTMLElement {
  if (value === null || value === undefined) return h('code', { class: 'muted' }, 'not recorded');
  return h('code', { class: 'json' }, typeof value === 'string' ? value : JSON.stringify(value));
}
