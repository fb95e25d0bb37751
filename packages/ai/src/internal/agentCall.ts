import { stepCountIs } from 'ai';
import type { ModelMessage, StopCondition, TelemetryOptions, ToolSet } from 'ai';
import type { Session } from '@cohort/runtime';
import { DEFAULT_MAX_STEPS } from '../AgentOptions.ts';
import type { AgentModel, AgentOptions } from '../AgentOptions.ts';
import { recurseTool } from '../recurseTool.ts';
import { skillTools } from '../skillTools.ts';
import { chargedModel } from './chargedModel.ts';
import { recordedModel } from './recordedModel.ts';
import { recordedTools } from './recordedTools.ts';

/** The options `generateText` and `streamText` share for an agent inside a session. */
export type AgentCall = {
  readonly model: AgentModel;
  readonly tools: ToolSet;
  readonly system?: string;
  readonly abortSignal: AbortSignal;
  readonly stopWhen: StopCondition<ToolSet>[];
  readonly telemetry?: TelemetryOptions;
} & ({ readonly prompt: string } | { readonly messages: ModelMessage[] });

/**
 * The loop's settings: the model charged to the session's budget, the session's tools, its
 * signal as the abort signal (a timeout, a cancellation or a spent budget stops the model
 * call in flight), and a stop after `maxSteps` or as soon as the session has ended.
 */
export function agentCall(session: Session, options: AgentOptions): AgentCall {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const tools: ToolSet = { ...skillTools(session) };
  if (options.recurse) {
    const given = options.recurse === true ? {} : options.recurse;
    tools['recurse'] = recurseTool(session, {
      model: options.model,
      maxSteps,
      ...(options.system !== undefined ? { system: options.system } : {}),
      ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
      ...given,
    });
  }
  Object.assign(tools, options.tools);
  return {
    // recorded inside the charge: a call the budget refuses was never made
    model: chargedModel(session, recordedModel(session, options.model)),
    tools: recordedTools(session, tools),
    ...(options.system !== undefined ? { system: options.system } : {}),
    ...(options.prompt !== undefined ? { prompt: options.prompt } : { messages: options.messages ?? [] }),
    abortSignal: session.signal,
    stopWhen: [stepCountIs(maxSteps), () => session.signal.aborted],
    ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
  };
}

/** Throws why the session ended, when it has (the loop's result would not reach anyone). */
export function throwIfEnded(session: Session): void {
  if (session.signal.aborted) throw new Error('the session ended during the agent loop', { cause: session.signal.reason });
}
