import type { LanguageModel, LanguageModelUsage, ModelMessage, StepResult, TelemetryOptions, ToolSet } from 'ai';
import type { BudgetSpec, Session } from '@cohort/runtime';

/** A language model object: a provider's (`openai('gpt-4.1-mini')`, `anthropic(…)`) or a test mock. */
export type AgentModel = Exclude<LanguageModel, string>;

/** What the model is asked: one prompt, or a conversation so far. */
export type AgentPrompt =
  | { readonly prompt: string; readonly messages?: never }
  | { readonly messages: ModelMessage[]; readonly prompt?: never };

/** Options of {@link runAgent} and {@link streamAgent}. */
export type AgentOptions = AgentPrompt & {
  readonly model: AgentModel;
  readonly system?: string;
  /** The most model calls (steps) of the loop (default 10). */
  readonly maxSteps?: number;
  /** More tools, beside the session's Skillbook tools (a tool of the same name replaces one). */
  readonly tools?: ToolSet;
  /** Gives the model a `recurse` tool that runs sub-tasks as parallel child sessions. */
  readonly recurse?: boolean | RecurseOptions;
  /**
   * The AI SDK's telemetry settings for the loop's calls (`functionId`, `recordInputs`, …; the
   * AI SDK's `telemetry` option), and for its `recurse` children's. Its spans nest under the
   * session's span (see docs/observability.md).
   */
  readonly telemetry?: TelemetryOptions;
};

/** How `recurse` runs its children; each option defaults to the parent agent's. */
export interface RecurseOptions {
  readonly model?: AgentModel;
  readonly system?: string;
  readonly maxSteps?: number;
  /** Each child fails with kind `timeout` after this many milliseconds (its model call is aborted). */
  readonly timeoutMs?: number;
  /** Each child's budget, carved out of the parent's remaining one. */
  readonly budget?: BudgetSpec;
  /** More tools for each child, made for its session. */
  readonly tools?: (child: Session) => ToolSet;
  /** How many levels further the children may recurse (default 0: they get no `recurse` tool). */
  readonly depth?: number;
  /** The AI SDK's telemetry settings of each child's loop. */
  readonly telemetry?: TelemetryOptions;
}

/** What an agent's loop produced: the final text, every step, and the tokens of all steps. */
export interface AgentResult {
  readonly text: string;
  readonly steps: readonly StepResult<ToolSet>[];
  readonly usage: LanguageModelUsage;
}

/** The default of {@link AgentOptions.maxSteps}. */
export const DEFAULT_MAX_STEPS = 10;
