import { MockLanguageModelV3 } from 'ai/test';
import { runAgent } from '@cohort/ai';
import type { Session, SessionOutcome } from '@cohort/runtime';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** Called as each mock model call starts, with its task and step (the kill test counts them), and awaited. */
export const modelCalls: { hook: (task: string, step: number) => Promise<void> | void } = { hook: () => undefined };

/** What an agent is asked: its task, how many tool steps before its answer, how long each call takes. */
export interface AgentInput {
  readonly task: string;
  readonly steps: number;
  readonly delayMs?: number;
}

/**
 * A mock model (the AI SDK's `MockLanguageModelV3`) that answers the same way every time: at
 * step n < steps an `add_skill` call (`<task> step <n>`, tool call id `<task>-<n>`), then its
 * answer. Each call waits `delayMs` after {@link modelCalls}' hook.
 */
export function stepModel(input: AgentInput): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options: CallOptions): Promise<GenerateResult> => {
      const step = options.prompt.filter((m) => m.role === 'assistant').length;
      await modelCalls.hook(input.task, step);
      if (input.delayMs) await new Promise((r) => setTimeout(r, input.delayMs));
      const usage = {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      };
      if (step < input.steps) {
        const args = { section: 'harness', issue: `${input.task} step ${step}`, insight: `learned at step ${step}` };
        return {
          content: [{ type: 'tool-call', toolCallId: `${input.task}-${step}`, toolName: 'add_skill', input: JSON.stringify(args) }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: `${input.task} done` }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** A body that runs an agent loop through `@cohort/ai` with the mock model; returns its answer. */
export async function agent(s: Session<AgentInput>): Promise<string> {
  return agentLoop(s, s.input);
}

async function agentLoop(s: Session, input: AgentInput): Promise<string> {
  const result = await runAgent(s, { model: stepModel(input), prompt: input.task, maxSteps: input.steps + 1 });
  return result.text;
}

/** A root that runs an agent of its own, then two agent children (registered: units of their own). */
export async function agentTree(s: Session<{ readonly steps: number; readonly delayMs?: number }>): Promise<string[]> {
  const { steps, delayMs } = s.input;
  const own = await agentLoop(s, { task: 'root', steps, ...(delayMs ? { delayMs } : {}) });
  const children: Promise<SessionOutcome<string>>[] = ['left', 'right'].map((task) =>
    s.spawn(agent, { input: { task, steps, ...(delayMs ? { delayMs } : {}) }, name: task }),
  );
  const outcomes = await Promise.all(children);
  return [own, ...outcomes.map((o) => (o.status === 'committed' ? o.output : `${o.failure.kind}: ${o.failure.message}`))];
}
