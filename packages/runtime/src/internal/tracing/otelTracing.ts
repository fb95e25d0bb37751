import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { Conflict } from '@cohort/skillbook';
import type { Commit } from '../../Commit.ts';
import type { ErrorInfo } from '../../ErrorInfo.ts';
import type { SessionFailure } from '../../SessionFailure.ts';
import type { SkillTools } from '../../tools.ts';
import type { SessionNode } from '../SessionNode.ts';
import type { Verdict } from '../Verdict.ts';
import type { OtelApiModule } from './otelApi.ts';
import { tracedTools } from './tracedTools.ts';
import type { SessionTrace, Tracing } from './Tracing.ts';

/** What the OpenTelemetry tracer keeps of a traced session. */
export interface OtelSessionTrace extends SessionTrace {
  readonly sessionId: string;
  readonly span: Span;
  /** The parent's context with this session's span in it: what its body, tools and merges run in. */
  readonly context: Context;
}

const INTERNAL = 0; // SpanKind.INTERNAL
const ERROR = 2; // SpanStatusCode.ERROR

/**
 * Spans after the OpenTelemetry GenAI conventions: `invoke_agent <name>` per session (its parent
 * the parent session's span; a root session's, the context active at `rt.run`), `execute_tool
 * <tool>` per Skillbook tool call, `cohort.merge` per commit merged into a parent session and
 * `cohort.store.append` per root commit made durable (both linked to the committing session's
 * span). A tree whose root span does not record (no provider registered, or not sampled) is not
 * traced further: its sessions cost one check each.
 */
export class OtelTracing implements Tracing {
  readonly enabled = true;

  constructor(
    private readonly api: OtelApiModule,
    private readonly tracer: Tracer,
  ) {}

  sessionStarted(node: SessionNode): OtelSessionTrace | null {
    return this.startSession(node.parent, node.id, node.path, node.name, node.attempt);
  }

  sessionRefused(parent: SessionNode | null, failure: SessionFailure, name: string | undefined): void {
    const trace = this.startSession(parent, failure.sessionId, failure.path, name, failure.attempt);
    this.sessionSettled(trace, { failure, charged: { tokens: 0, requests: 0 } });
  }

  /** A session's span under its parent's (a root session's: under the active context), or null when untraced. */
  private startSession(
    parentNode: SessionNode | null,
    id: string,
    path: readonly string[],
    sessionName: string | undefined,
    attempt: number,
  ): OtelSessionTrace | null {
    const parent = parentNode ? (parentNode.trace as OtelSessionTrace | null) : null;
    if (parentNode && !parent) return null;
    const parentContext = parent ? parent.context : this.api.context.active();
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': id,
      'gen_ai.conversation.id': path[0] ?? id,
      'cohort.session.path': [...path],
      'cohort.session.attempt': attempt,
    };
    if (sessionName !== undefined) attributes['gen_ai.agent.name'] = sessionName;
    const name = sessionName === undefined ? 'invoke_agent' : `invoke_agent ${sessionName}`;
    const span = this.tracer.startSpan(name, { kind: INTERNAL, attributes }, parentContext);
    if (!parent && !span.isRecording()) return null;
    return { kind: 'session-trace', sessionId: id, span, context: this.api.trace.setSpan(parentContext, span) };
  }

  run<T>(trace: SessionTrace | null, fn: () => T): T {
    return trace ? this.api.context.with((trace as OtelSessionTrace).context, fn) : fn();
  }

  tools(trace: SessionTrace | null, tools: SkillTools): SkillTools {
    return trace ? tracedTools(this.api, this.tracer, trace as OtelSessionTrace, tools) : tools;
  }

  mergeStarted(owner: SessionNode | null, child: SessionNode, commit: Commit): ((verdict: Verdict) => void) | null {
    const committing = child.trace as OtelSessionTrace | null;
    if (!committing) return null;
    const into = owner ? (owner.trace as OtelSessionTrace | null) : committing;
    if (!into) return null;
    let ops = 0;
    for (const entry of commit.entries) ops += entry.ops.length;
    const span = this.tracer.startSpan(
      owner ? 'cohort.merge' : 'cohort.store.append',
      {
        kind: INTERNAL,
        attributes: {
          'cohort.session.id': child.id,
          'cohort.merge.into': owner ? owner.id : 'store',
          'cohort.commit.base_revision': commit.baseRevision,
          'cohort.commit.ops': ops,
          'cohort.commit.entries': commit.entries.length,
        },
        links: [{ context: committing.span.spanContext() }],
      },
      into.context,
    );
    return (verdict) => {
      if (verdict.ok) {
        span.setAttributes({
          'cohort.merge.revision': verdict.revision,
          'cohort.merge.ops': verdict.merge.ops.length,
          'cohort.merge.conflicts': verdict.merge.dropped.length,
        });
        addConflicts(span, verdict.merge.dropped);
      } else {
        const { failure } = verdict;
        span.setAttributes({ 'error.type': failure.kind, 'cohort.merge.conflicts': failure.conflicts?.length ?? 0 });
        span.setStatus({ code: ERROR, message: failure.message });
        addConflicts(span, failure.conflicts ?? []);
        addCauseChain(span, failure.error);
      }
      span.end();
    };
  }

  sessionSettled(trace: SessionTrace | null, settled: Parameters<Tracing['sessionSettled']>[1]): void {
    if (!trace) return;
    const { span } = trace as OtelSessionTrace;
    span.setAttributes({ 'cohort.charged.tokens': settled.charged.tokens, 'cohort.charged.requests': settled.charged.requests });
    if ('merged' in settled) {
      const { merged } = settled;
      span.setAttributes({
        'cohort.session.status': 'committed',
        'cohort.merge.revision': merged.revision,
        'cohort.merge.ops': merged.ops,
        'cohort.merge.conflicts': merged.dropped.length,
      });
    } else {
      const { failure } = settled;
      span.setAttributes({
        'cohort.session.status': 'failed',
        'error.type': failure.kind,
        'cohort.failure.category': failure.category,
        'cohort.discarded.ops': failure.discarded.ops,
        'cohort.discarded.descendants': failure.discarded.descendants,
      });
      span.setStatus({ code: ERROR, message: failure.message });
      addConflicts(span, failure.conflicts ?? []);
      addCauseChain(span, failure.error);
    }
    span.end();
  }
}

/** Each error of the cause chain as an `exception` event, outermost first. */
function addCauseChain(span: Span, error: ErrorInfo | undefined): void {
  let depth = 0;
  for (let e = error; e; e = e.cause, depth++) {
    const attributes: Attributes = { 'exception.type': e.name, 'exception.message': e.message, 'cohort.cause.depth': depth };
    if (e.stack !== undefined) attributes['exception.stacktrace'] = e.stack;
    if (e.code !== undefined) attributes['cohort.error.code'] = e.code;
    span.addEvent('exception', attributes);
  }
}

/** Each conflict as a `cohort.conflict` event. */
function addConflicts(span: Span, conflicts: readonly Conflict[]): void {
  for (const c of conflicts) {
    span.addEvent('cohort.conflict', {
      'cohort.skill.id': c.skillId,
      'cohort.conflict.op': c.type,
      'cohort.conflict.reason': c.reason,
      'cohort.conflict.revision': c.revision,
    });
  }
}
