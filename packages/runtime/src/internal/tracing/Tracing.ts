import type { Commit } from '../../Commit.ts';
import type { SessionFailure } from '../../SessionFailure.ts';
import type { MergedInfo } from '../../sessionMachine.ts';
import type { SkillTools } from '../../tools.ts';
import type { Charged } from '../outcomes.ts';
import type { SessionNode } from '../SessionNode.ts';
import type { Verdict } from '../Verdict.ts';

/** A traced session's span and the context its body runs in; opaque outside the tracer. */
export interface SessionTrace {
  readonly kind: 'session-trace';
}

/**
 * Where the runtime tells its tracer what happens: a session starts, runs its body, calls a
 * tool, has a commit merged, settles. The runtime calls these hooks at its seams and nothing
 * else; {@link NO_TRACING} does nothing at each, so a runtime without OpenTelemetry pays one
 * call per hook and allocates nothing (bench row 9a).
 */
export interface Tracing {
  /** False for {@link NO_TRACING}: the runtime skips even the lookups a hook would need. */
  readonly enabled: boolean;
  /** A session started: its trace (span, and the context its body runs in), or null when untraced. */
  sessionStarted(node: SessionNode): SessionTrace | null;
  /** A spawn was refused before its session existed (a limit, a spent budget): a span that ends at once, failed. */
  sessionRefused(parent: SessionNode | null, failure: SessionFailure, name: string | undefined): void;
  /** Runs `fn` (the body's start) with the session's span as the active context. */
  run<T>(trace: SessionTrace | null, fn: () => T): T;
  /** The session's tools, each call a span when the session is traced. */
  tools(trace: SessionTrace | null, tools: SkillTools): SkillTools;
  /** A commit of `child` is being merged into `owner` (null: into the store); what to call with the verdict, or null. */
  mergeStarted(owner: SessionNode | null, child: SessionNode, commit: Commit): ((verdict: Verdict) => void) | null;
  /** The session committed (`merged`) or failed (`failure`); its span ends. */
  sessionSettled(
    trace: SessionTrace | null,
    settled: { readonly merged: MergedInfo; readonly charged: Charged } | { readonly failure: SessionFailure; readonly charged: Charged },
  ): void;
}

/** Tracing off: every hook is a pass-through. */
export const NO_TRACING: Tracing = {
  enabled: false,
  sessionStarted: () => null,
  sessionRefused: () => undefined,
  run: (_trace, fn) => fn(),
  tools: (_trace, tools) => tools,
  mergeStarted: () => null,
  sessionSettled: () => undefined,
};
