import { z } from 'zod';
import { ErrorInfoSchema } from './ErrorInfo.ts';

/**
 * One part of a message to or from a model: text, reasoning, a tool call with its input, a
 * tool result, or anything else (a file, a source) as a short description.
 */
export const CallPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('reasoning'), text: z.string() }),
  z.object({ type: z.literal('tool-call'), toolCallId: z.string(), toolName: z.string(), input: z.unknown() }),
  z.object({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.unknown(),
    isError: z.boolean().optional(),
  }),
  z.object({ type: z.literal('other'), text: z.string() }),
]);
/** See {@link CallPartSchema}. */
export type CallPart = z.infer<typeof CallPartSchema>;

/** A message of a model call's prompt. */
export const CallMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  parts: z.array(CallPartSchema),
});
/** See {@link CallMessageSchema}. */
export type CallMessage = z.infer<typeof CallMessageSchema>;

/** One call of a language model in a session's agent loop. */
export const ModelCallSchema = z.object({
  type: z.literal('model'),
  /** The model as its provider names it (`openai.chat/gpt-4.1-mini`). */
  model: z.string(),
  /** 0 for a loop's first call, 1 for the call after its first tool results, … */
  step: z.number().int(),
  /** What this call was sent that the loop's previous call was not: the whole prompt on step 0, the tool results after. */
  input: z.array(CallMessageSchema),
  /** The model's answer: its text, reasoning and tool calls. */
  output: z.array(CallPartSchema),
  /** Why the model stopped (`stop`, `tool-calls`, `length`, …); null when the call failed. */
  finishReason: z.string().nullable(),
  /** Tokens of this call, as the provider reports them (null when it does not). */
  usage: z.object({ inputTokens: z.number().nullable(), outputTokens: z.number().nullable() }),
  /** Wall-clock milliseconds from the request to the whole answer. */
  durationMs: z.number(),
  /** Why the call failed (the provider's error, an abort), when it did. */
  error: ErrorInfoSchema.optional(),
});
/** See {@link ModelCallSchema}. */
export type ModelCall = z.infer<typeof ModelCallSchema>;

/** One run of a tool the model called (a Skillbook tool, `recurse`, or one of the caller's). */
export const ToolCallSchema = z.object({
  type: z.literal('tool'),
  /** The id the model gave the call: the matching `tool-call` part of a model call's output has it. */
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  /** What the tool returned (a refused Skillbook call returns `{ error }`); absent when it threw. */
  output: z.unknown().optional(),
  /** What the tool threw, when it did. */
  error: ErrorInfoSchema.optional(),
  durationMs: z.number(),
});
/** See {@link ToolCallSchema}. */
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * A model or tool call a session made, as `s.record` puts it on `rt.events$` (a
 * `session.call` event). `@cohort/ai` records every call of its agent loops.
 */
export const SessionCallSchema = z.discriminatedUnion('type', [ModelCallSchema, ToolCallSchema]);
/** See {@link SessionCallSchema}. */
export type SessionCall = z.infer<typeof SessionCallSchema>;
