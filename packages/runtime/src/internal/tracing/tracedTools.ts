import type { Attributes, Tracer } from '@opentelemetry/api';
import type { SkillToolName, SkillTools, ToolResult } from '../../tools.ts';
import type { OtelApiModule } from './otelApi.ts';
import type { OtelSessionTrace } from './otelTracing.ts';

const INTERNAL = 0; // SpanKind.INTERNAL
const ERROR = 2; // SpanStatusCode.ERROR

const NAMES: readonly SkillToolName[] = ['add_skill', 'update_skill', 'remove_skill', 'tag_skill', 'read_skill'];

/**
 * A session's tools, each call an `execute_tool <tool>` span with the skill id and the result
 * (`ok`, or the `{ error }` as the span's status). Under the session's span, or under the span
 * active at the call when that one is in the session's trace (an AI SDK tool call's span).
 */
export function tracedTools(api: OtelApiModule, tracer: Tracer, session: OtelSessionTrace, tools: SkillTools): SkillTools {
  const traced: Partial<Record<SkillToolName, (raw: unknown) => Promise<ToolResult>>> = {};
  for (const name of NAMES) {
    const tool = tools[name] as (raw: unknown) => Promise<ToolResult>;
    traced[name] = (raw) => {
      const active = api.context.active();
      const activeSpan = api.trace.getSpan(active);
      const parent = activeSpan?.spanContext().traceId === session.span.spanContext().traceId ? active : session.context;
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.type': 'function',
        'gen_ai.agent.id': session.sessionId,
      };
      const span = tracer.startSpan(`execute_tool ${name}`, { kind: INTERNAL, attributes }, parent);
      const asked = askedSkillId(raw);
      if (asked !== undefined) span.setAttribute('cohort.skill.id', asked);
      return api.context
        .with(api.trace.setSpan(parent, span), () => tool(raw))
        .then((result) => {
          if ('error' in result) {
            span.setAttributes({ 'cohort.tool.result': 'error', 'error.type': 'tool_refused' });
            span.setStatus({ code: ERROR, message: result.error });
          } else {
            const id = 'skill_id' in result ? result.skill_id : result.skill.id;
            span.setAttributes({ 'cohort.tool.result': 'ok', 'cohort.skill.id': id });
          }
          span.end();
          return result;
        });
    };
  }
  return traced as unknown as SkillTools;
}

/** The `skill_id` a call names, when it names one as a string (nothing else is read of untrusted arguments). */
function askedSkillId(raw: unknown): string | undefined {
  try {
    const id = typeof raw === 'object' && raw !== null ? (raw as { skill_id?: unknown }).skill_id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
