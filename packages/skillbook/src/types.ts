import type { OperationLimits } from './operationLimits.ts';
/**
 * The public types of the Skillbook value. The data model mirrors ACE's schema-v2 document;
 * the revision bookkeeping is Cohort's own (see docs/skillbook.md, "Conflicts").
 */

/** A skill id, e.g. `context-00001`. Any non-empty string is a valid id (`__proto__` too). */
export type SkillId = string & { readonly __brand: 'SkillId' };

/** The two real sections; legacy section names are folded into `context` on ADD. */
export type Section = 'context' | 'harness';

/** An operation's type, upper-cased. */
export type OpType = 'ADD' | 'UPDATE' | 'TAG' | 'REMOVE';

/** Where an insight came from (ACE `InsightSource`); key order is the document's. */
export interface InsightSource {
  readonly trace_uid: string;
  readonly source_system: string;
  readonly trace_id: string;
  readonly display_name?: string;
  readonly relation?: string;
  readonly sample_question?: string;
  readonly epoch?: number;
  readonly operation_type?: string;
  readonly error_identification?: string;
  readonly learning_text?: string;
}

/** One skill, exactly as ACE's document stores it. Frozen. */
export interface Skill {
  readonly id: SkillId;
  readonly section: string;
  readonly keywords: readonly string[];
  readonly issue: string;
  readonly insight?: string;
  readonly occurrences: readonly InsightSource[];
  readonly active: boolean;
  readonly used_count: number;
  readonly helpful_count: number;
  readonly harmful_count: number;
  readonly neutral_count: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * The book revision at which a skill's parts last changed. `content` is issue, keywords and
 * insight; `active` is the soft-remove flag; `counters` are the tag counts and occurrences.
 */
export interface SkillRevisions {
  readonly content: number;
  readonly active: number;
  readonly counters: number;
}

/**
 * An operation as applied, in ACE's operation JSON shape, made exact: the final `skill_id`
 * (allocated ids included), the normalised `section` and `keywords`, and `at`, the ACE
 * timestamp it was applied at. Replaying applied ops (`Skillbook.replay`) reproduces a book
 * byte for byte. ACE ignores the extra `at` key, so these are valid ACE operations.
 */
export interface AppliedOp {
  readonly type: OpType;
  readonly section: string;
  readonly skill_id: string;
  readonly issue?: string;
  readonly keywords?: readonly string[];
  readonly insight?: string;
  readonly metadata?: Readonly<Record<string, number>>;
  readonly insight_source?: readonly InsightSource[];
  readonly reason?: string;
  readonly at: string;
}

/**
 * An op that was valid but does nothing: an UPDATE, TAG or REMOVE of an unknown id (or of no
 * id), as in ACE (`code: 'no_skill'`), or a REMOVE of a skill already removed that adds no
 * insight source (`code: 'no_change'`; ACE would still move its `updated_at`).
 */
export interface SkippedOp {
  readonly opIndex: number;
  readonly type: OpType;
  readonly skillId: string | null;
  readonly code: 'no_skill' | 'no_change';
  readonly reason: string;
}

/** Stable codes of every way a batch or a document can be refused. */
export type SkillbookErrorCode =
  | 'invalid_json'
  | 'invalid_batch'
  | 'invalid_operation'
  | 'unknown_operation_type'
  | 'duplicate_skill_id'
  | 'invalid_document'
  | 'unsupported_schema_version'
  | 'limit_exceeded'
  | 'ids_unavailable';

/** A structured refusal. `opIndex` names the failing operation of a batch. */
export interface SkillbookErrorInfo {
  readonly code: SkillbookErrorCode;
  readonly message: string;
  readonly opIndex?: number;
  /** The JSON path of the offending value: `skills.context-00001.issue` in a document, `operations.0.insight` in a batch. */
  readonly path?: string;
}

/** A clock that tells the time in milliseconds since the epoch (may be fractional). */
export interface Clock {
  now(): number;
}

/**
 * Allocates a fresh id for an ADD without an explicit `skill_id`; `null` when it has none at
 * hand now (an allocator drawing from leases between two of them): the batch is then refused
 * whole with `ids_unavailable`, and may be tried again later.
 */
export type IdAllocator = (section: Section) => SkillId | null;

/** Options for applying a batch. */
export interface ApplyOptions {
  /** The time source for `created_at`/`updated_at` and `AppliedOp.at`. Default: the real clock. */
  readonly clock?: Clock;
  /** Allocates ids instead of the book's own `next_id` counter (the runtime shares one per tree). */
  readonly allocateId?: IdAllocator;
  /** Refuse (`limit_exceeded`) an operation that carries more than these allow (default: no limits). */
  readonly limits?: OperationLimits;
}

/** Why an op in a commit conflicts with what changed since the commit's base revision. */
export type ConflictReason = 'content_changed' | 'removed' | 'id_exists';

/** One conflicting op of a commit (the conflict table: docs/internals/conflicts.md). */
export interface Conflict {
  readonly opIndex: number;
  readonly type: OpType;
  readonly skillId: string;
  readonly reason: ConflictReason;
  /** The revision at which the target changed. */
  readonly revision: number;
}

/** ACE's `stats()` numbers. */
export interface SkillbookStats {
  readonly sections: number;
  readonly skills: number;
  readonly active_skills: number;
  readonly by_section: Readonly<Record<string, number>>;
}
