/**
 * Applied ops read back for a replay: validated (unless this package made them) and turned
 * into parsed operations again, with the `at` timestamp each one was applied at.
 */
import type { z } from 'zod';
import { canonicalSource } from '../../insightSource.ts';
import { normalizeKeywords, normalizeOptionalText } from '../../normalize.ts';
import type { ParsedOperation } from '../../parseOperation.ts';
import { ACE_TIMESTAMP_PATTERN, AppliedOpSchema } from '../../schemas.ts';
import { errorInfo } from '../../SkillbookError.ts';
import type { AppliedOp, SkillbookErrorInfo } from '../../types.ts';
import { isProducedOp } from './replayCache.ts';

/** The outcome of {@link parseAppliedOps}. */
export type ParsedAppliedOps =
  | { readonly ok: true; readonly ops: ParsedOperation[]; readonly at: string[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * Checks a list of applied ops and parses them for `applyOps`. An op this package made
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
      parsed.push(producedOperation(raw, i));
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

/** An op this package made, as `parseAppliedOps` parses it: its fields are normalised already, and read as they are. */
export function producedOperation(op: AppliedOp, opIndex: number): ParsedOperation {
  return {
    opIndex,
    type: op.type,
    section: op.section,
    skillId: op.skill_id,
    issue: op.issue ?? null,
    keywords: op.keywords ?? NO_KEYWORDS,
    insight: op.insight ?? null,
    metadata: op.metadata ?? NO_METADATA,
    delta: deltaOf(op),
    reason: op.reason ?? null,
    sources: op.insight_source ?? null,
  };
}

/*
 * The schema's answer for an op of the plain shape applied ops have, checked by hand rather
 * than by zod (a store replays its journal's ops on open: bench row 5): it accepts
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
  return (
    OP_TYPES.has(op['type']) &&
    typeof op['section'] === 'string' &&
    typeof id === 'string' &&
    id.length > 0 &&
    optionalText(op['issue']) &&
    optionalText(op['insight']) &&
    optionalText(op['reason']) &&
    (keywords === undefined || (Array.isArray(keywords) && keywords.every((k) => typeof k === 'string'))) &&
    (metadata === undefined || isCounts(metadata)) &&
    op['insight_source'] === undefined &&
    typeof at === 'string' &&
    ACE_TIMESTAMP_PATTERN.test(at)
  );
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
