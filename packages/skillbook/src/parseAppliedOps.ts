/**
 * Applied ops read back for a replay: validated (unless this package made them) and turned
 * into parsed operations again, with the `at` timestamp each one was applied at.
 */
import type { z } from 'zod';
import { canonicalSource } from './insightSource.ts';
import { normalizeKeywords, normalizeOptionalText } from './normalize.ts';
import type { ParsedOperation } from './parseOperation.ts';
import { isProducedOp } from './internal/engine/replayCache.ts';
import { ACE_TIMESTAMP_PATTERN, AppliedOpSchema } from './schemas.ts';
import { errorInfo } from './SkillbookError.ts';
import type { AppliedOp, InsightSource, SkillbookErrorInfo } from './types.ts';

/** The outcome of {@link parseAppliedOps}. */
export type ParsedAppliedOps =
  | { readonly ok: true; readonly ops: ParsedOperation[]; readonly at: string[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * Checks a list of applied ops and parses them for `runOperations`. An op this package made
 * (frozen, so still valid) skips the schema check: a merge replays every op a session wrote.
 */
export function parseAppliedOps(ops: readonly AppliedOp[]): ParsedAppliedOps {
  if (!Array.isArray(ops)) return { ok: false, error: errorInfo('invalid_batch', 'replay takes a list of applied ops') };
  const parsed: ParsedOperation[] = [];
  const at: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const raw: unknown = ops[i];
    let op: AppliedLike;
    if (isProducedOp(raw)) {
      parsed.push(new ProducedOperation(raw, i));
      at.push(raw.at);
      continue;
    } else if (isPlainAppliedOp(raw)) {
      op = raw;
    } else {
      const checked = AppliedOpSchema.safeParse(raw);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        return { ok: false, error: errorInfo('invalid_operation', `not an applied op: ${where}${issue?.message ?? ''}`, { opIndex: i }) };
      }
      op = checked.data;
    }
    parsed.push(fromApplied(op, i));
    at.push(op.at);
  }
  return { ok: true, ops: parsed, at };
}

/** Whether `ops` is a list of ops this package made, none of which needs checking or parsing up front. */
export function allProduced(ops: readonly AppliedOp[]): boolean {
  if (!Array.isArray(ops)) return false;
  for (let i = 0; i < ops.length; i++) if (!isProducedOp(ops[i])) return false;
  return true;
}

/** An op this package made, as `parseAppliedOps` parses it (its fields read as they are). */
export function producedOperation(op: AppliedOp, opIndex: number): ParsedOperation {
  return new ProducedOperation(op, opIndex);
}

/*
 * The schema's answer for an op of the plain shape applied ops have, checked by hand (a store
 * replays 100,000 journal ops on open, and zod costs more than applying them): it accepts
 * only what `AppliedOpSchema` accepts, and the op is then read by field like the schema's
 * output (extra keys, which the schema strips, are never read). Anything else — insight
 * sources included — goes through the schema, which also says what is wrong.
 */

const OP_TYPES: ReadonlySet<unknown> = new Set(['ADD', 'UPDATE', 'TAG', 'REMOVE']);

const optionalText = (value: unknown): boolean => value === undefined || typeof value === 'string';

/** A plain record of finite numbers, keyed by text only (zod's record drops `__proto__` and refuses symbols: left to it). */
function isCounts(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const n = record[key];
    if (key === '__proto__' || typeof n !== 'number' || !Number.isFinite(n)) return false;
  }
  return Object.getOwnPropertySymbols(record).length === 0;
}

function isPlainAppliedOp(raw: unknown): raw is AppliedOp {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  const op = raw as Record<string, unknown>;
  const id = op['skill_id'];
  const at = op['at'];
  const keywords = op['keywords'];
  const metadata = op['metadata'];
  return OP_TYPES.has(op['type']) && typeof op['section'] === 'string' && typeof id === 'string' && id.length > 0
    && optionalText(op['issue']) && optionalText(op['insight']) && optionalText(op['reason'])
    && (keywords === undefined || (Array.isArray(keywords) && keywords.every((k) => typeof k === 'string')))
    && (metadata === undefined || isCounts(metadata)) && op['insight_source'] === undefined
    && typeof at === 'string' && ACE_TIMESTAMP_PATTERN.test(at);
}

/**
 * An applied op this package made: its fields are normalised already, so they are read as they
 * are, through getters — a replay of a large commit usually reuses what each op did the first
 * time and reads only its type and id, so a copy of every field would be made for nothing.
 */
class ProducedOperation implements ParsedOperation {
  constructor(
    private readonly op: AppliedOp,
    readonly opIndex: number,
  ) {}

  get type(): AppliedOp['type'] {
    return this.op.type;
  }

  get section(): string {
    return this.op.section;
  }

  get skillId(): string {
    return this.op.skill_id;
  }

  get issue(): string | null {
    return this.op.issue ?? null;
  }

  get keywords(): readonly string[] {
    return this.op.keywords ?? NO_KEYWORDS;
  }

  get insight(): string | null {
    return this.op.insight ?? null;
  }

  get metadata(): Readonly<Record<string, number>> {
    return this.op.metadata ?? NO_METADATA;
  }

  get delta(): -1 | 0 | 1 {
    return deltaOf(this.op);
  }

  get reason(): string | null {
    return this.op.reason ?? null;
  }

  get sources(): readonly InsightSource[] | null {
    return this.op.insight_source ?? null;
  }
}

const NO_KEYWORDS: readonly string[] = Object.freeze([]);
const NO_METADATA: Readonly<Record<string, number>> = Object.freeze({});

/** TAG's direction: the sign of `metadata.delta` (missing → neutral). */
function deltaOf(op: { readonly metadata?: Readonly<Record<string, number>> | undefined }): -1 | 0 | 1 {
  const delta = Math.sign(Math.trunc(op.metadata?.['delta'] ?? 0));
  return delta > 0 ? 1 : delta < 0 ? -1 : 0;
}

/** An applied op: one this package made, or one the schema checked. */
type AppliedLike = AppliedOp | z.output<typeof AppliedOpSchema>;

/** An applied op as a parsed op, normalised again (idempotent) so a hand-written one is safe. */
function fromApplied(op: AppliedLike, opIndex: number): ParsedOperation {
  return {
    opIndex,
    type: op.type,
    section: op.section,
    skillId: op.skill_id,
    issue: normalizeOptionalText(op.issue),
    keywords: normalizeKeywords(op.keywords ?? []),
    insight: normalizeOptionalText(op.insight),
    metadata: op.metadata ?? NO_METADATA,
    delta: deltaOf(op),
    reason: normalizeOptionalText(op.reason),
    sources: op.insight_source ? op.insight_source.map((s) => canonicalSource(s)) : null,
  };
}
