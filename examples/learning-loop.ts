/**
 * An ACE-style learning loop on Cohort: a reflector model reads a few task traces and, through
 * `recurse`, has one child agent per trace distil a skill into the shared Skillbook, all in
 * parallel. Each child writes to its own private draft; a child that finishes commits its
 * skills into the reflector's session, a child that fails leaves nothing behind.
 *
 *   ./pnpmw example learning-loop
 *     offline, with a scripted model (the child for trace-3 fails: its provider "goes down")
 *   COHORT_MODEL=anthropic:claude-sonnet-4-5 ANTHROPIC_API_KEY=… ./pnpmw example learning-loop
 *     the same loop against a real model: `<provider>:<model id>`, for any `@ai-sdk/<provider>`
 *     package installed (`./pnpmw add -w @ai-sdk/openai` for `openai:gpt-4.1-mini`)
 */
import { MockLanguageModelV3 } from 'ai/test';
import { createRuntime } from '@cohort/runtime';
import type { RuntimeEvent } from '@cohort/runtime';
import { runAgent } from '@cohort/ai';
import type { AgentModel } from '@cohort/ai';

const traces = [
  { id: 'trace-1', task: 'Fetch all pages of GET /orders', outcome: 'failed: HTTP 429 on page 3; retried at once 5 times, then gave up' },
  { id: 'trace-2', task: 'Read the invoice date "03/04/2025" for a UK customer', outcome: 'wrong: read as 4 March instead of 3 April' },
  { id: 'trace-3', task: 'Summarise a 200-page PDF', outcome: 'timed out: sent the whole document in one model call' },
];

const REFLECTOR = `You improve an agent by reflecting on its task traces. Call recurse once, with one task per
trace (name it after the trace id), asking a child to distil one reusable skill from that trace.
You may add one harness skill of your own for a lesson that spans the traces. Then summarise.`;

const DISTILLER = `You distil one reusable skill from one task trace: call add_skill once, with section
"context", the situation as the issue, what to do as the insight, and insight_source naming the
trace (source_system "learning-loop", its trace_id). Then answer in one sentence.`;

const reflectOn = `Traces:\n${traces.map((t) => `- ${t.id}: ${t.task} -> ${t.outcome}`).join('\n')}`;

async function main(): Promise<void> {
  const model = await pickModel();
  const rt = createRuntime();
  const tree = new Map<string, { parent: string | null; name: string; status: string }>();
  rt.events$.subscribe((event) => track(tree, event));

  const outcome = await rt.run(
    (s) => runAgent(s, { model, system: REFLECTOR, prompt: reflectOn, recurse: { system: DISTILLER, timeoutMs: 60_000, maxSteps: 4 } }),
    { name: 'reflector', budget: { tokens: 200_000, requests: 40 } },
  );

  console.log(`Learned from ${traces.length} traces with ${process.env['COHORT_MODEL'] ?? 'a scripted offline model'}.\n`);
  console.log('Session tree:');
  for (const line of render(tree)) console.log(`  ${line}`);
  if (outcome.status === 'committed') console.log(`\nThe reflector: ${outcome.output.text} (${outcome.output.usage.totalTokens} tokens)`);
  console.log(`\nThe Skillbook as a prompt:\n\n${rt.book.asPrompt()}`);
  await rt.close();
  if (outcome.status !== 'committed') process.exitCode = 1;
}

/** A real model when COHORT_MODEL names one (`anthropic:claude-sonnet-4-5`), else the scripted one. */
async function pickModel(): Promise<AgentModel> {
  const spec = process.env['COHORT_MODEL'];
  if (!spec) return scriptedModel();
  const [provider = '', id = ''] = spec.split(':');
  const pkg = (await import(`@ai-sdk/${provider}`)) as Record<string, (modelId: string) => AgentModel>;
  const create = pkg[provider];
  if (!create) throw new Error(`@ai-sdk/${provider} has no export named ${provider}`);
  return create(id);
}

/**
 * The offline model: the reflector adds a harness skill and delegates one task per trace; each
 * child adds a skill with its trace as the source; trace-3's child fails on its second call.
 */
function scriptedModel(): AgentModel {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const task = JSON.stringify(prompt.find((m) => m.role === 'user')?.content);
      const step = prompt.filter((m) => m.role === 'assistant').length;
      const trace = traces.find((t) => task.includes(`Distil a skill from ${t.id}`));
      if (!trace) return step === 0 ? reflect() : say('Two traces became skills; trace-3 could not be distilled this round.');
      if (step === 0) return distil(trace);
      if (trace.id === 'trace-3') throw new Error('the model provider is unavailable (503)');
      return say(`Learned from ${trace.id}.`);
    },
  });
}

function reflect() {
  const tasks = traces.map((t) => ({ name: t.id, prompt: `Distil a skill from ${t.id}: ${t.task} -> ${t.outcome}` }));
  return calls([
    [
      'add_skill',
      {
        section: 'harness',
        issue: 'a step fails or runs long',
        insight: 'check limits (rate, size, time) before retrying',
        keywords: ['limits'],
        skill_id: null,
        insight_source: null,
      },
    ],
    ['recurse', { tasks }],
  ]);
}

function distil(trace: (typeof traces)[number]) {
  const lessons: Record<string, [string, string]> = {
    'trace-1': ['an API answers HTTP 429', 'back off exponentially and honour Retry-After'],
    'trace-2': ['a date like 03/04/2025 from a UK source', 'read it day-first (3 April)'],
    'trace-3': ['a document too long for one call', 'summarise it in chunks, then merge'],
  };
  const [issue, insight] = lessons[trace.id] ?? ['', ''];
  const source = { source_system: 'learning-loop', trace_id: trace.id, sample_question: trace.task, error_identification: trace.outcome };
  return calls([['add_skill', { section: 'context', issue, insight, insight_source: source }]]);
}

const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 30, text: 30, reasoning: undefined },
};

function calls(list: [string, unknown][]) {
  const content = list.map(([toolName, input], i) => ({
    type: 'tool-call' as const,
    toolCallId: `${toolName}-${i}`,
    toolName,
    input: JSON.stringify(input),
  }));
  return { content, finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [] };
}

function say(text: string) {
  return { content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] };
}

type Tree = Map<string, { parent: string | null; name: string; status: string }>;

/** Follows the runtime's events: who spawned whom, and how each session ended. */
function track(sessions: Tree, event: RuntimeEvent): void {
  if (event.type === 'session.spawned')
    sessions.set(event.sessionId, { parent: event.parentId, name: event.name ?? event.sessionId, status: 'running' });
  const session = 'sessionId' in event ? sessions.get(event.sessionId) : undefined;
  if (!session) return;
  if (event.type === 'session.merged') {
    const into = event.into === 'root' ? 'the book' : (sessions.get(event.into)?.name ?? event.into);
    session.status = `committed ${event.ops} op(s) into ${into}`;
  }
  if (event.type === 'session.failed') {
    session.status = `failed (${event.failure.kind}): ${event.failure.message}; discarded ${event.failure.discarded.ops} op(s)`;
  }
}

function render(sessions: Tree, parent: string | null = null, indent = ''): string[] {
  const children = [...sessions].filter(([, s]) => s.parent === parent);
  return children.flatMap(([id, s], i) => {
    const last = i === children.length - 1;
    const branch = parent === null ? '' : last ? '└─ ' : '├─ ';
    const below = parent === null ? '' : indent + (last ? '   ' : '│  ');
    return [`${indent}${branch}${s.name}: ${s.status}`, ...render(sessions, id, below)];
  });
}

await main();
