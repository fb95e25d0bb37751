import { jsonSchema, tool } from 'ai';
import type { Tool } from 'ai';
import { callSkillTool, toolJsonSchemas } from '@cohort/runtime';
import type { Session, SkillToolName, ToolResult } from '@cohort/runtime';

/** The Skillbook tools as an AI SDK tool set, one per ACE tool. */
export type SkillToolSet = { readonly [K in SkillToolName]: Tool<unknown, ToolResult> };

/**
 * The session's Skillbook tools (`add_skill`, `update_skill`, `tag_skill`, `remove_skill`,
 * `read_skill`) as AI SDK tools: what a model writes goes to this session's private draft and
 * reaches the shared book only when the session commits. Their schemas are in the strict form
 * OpenAI and Anthropic accept (`strict: true`), the runtime's limits stated in their descriptions. Arguments are validated when the tool runs, so
 * bad ones come back to the model as the tool's `{ error }` result, and the loop goes on.
 *
 * @example
 * const outcome = await rt.run((s) => generateText({ model, tools: skillTools(s), prompt, stopWhen: stepCountIs(5), abortSignal: s.signal }));
 */
export function skillTools(session: Session): SkillToolSet {
  const set: Partial<Record<SkillToolName, Tool<unknown, ToolResult>>> = {};
  for (const { name, description, parameters } of toolJsonSchemas({ limits: session.limits })) {
    set[name] = tool({
      description,
      // no `validate`: what the model sent reaches `execute`, whose zod check answers `{ error }`
      inputSchema: jsonSchema<unknown>(parameters),
      strict: true,
      execute: (input: unknown): Promise<ToolResult> => callSkillTool(session.tools, name, input),
    });
  }
  return set as SkillToolSet;
}
