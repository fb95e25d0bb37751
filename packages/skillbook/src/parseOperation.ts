/**
 * Raw operations and batches: their documented shape (zod schemas, for tool arguments) and
 * their parsing with ACE's `UpdateOperation.from_json` / `UpdateBatch.from_json` leniency.
 */
import { z } from 'zod';
import { coerceInsightSources } from './insightSource.ts';
import { parsePyJson } from './internal/pyJson.ts';
import { PyError, dictEntries, dictGet, dictHas, isDict, pyInt, pyStr } from './internal/python.ts';
import { normalizeKeywords, normalizeOptionalText } from './normalize.ts';
import { errorInfo } from './SkillbookError.ts';
import { checkOperationLimits } from './operationLimits.ts';
import type { OperationLimits } from './operationLimits.ts';
import type { InsightSource, OpType, SkillbookErrorInfo } from './types.ts';

/** The documented shape of an insight source in an operation (extra keys are allowed). */
export const RawInsightSourceSchema = z
  .object({
    trace_uid: z.string().optional(),
    source_system: z.string().optional(),
    trace_id: z.string().optional(),
    display_name: z.string().optional(),
    relation: z.string().optional(),
    sample_question: z.string().optional(),
    epoch: z.union([z.number().int(), z.string()]).optional(),
    operation_type: z.string().optional(),
    error_identification: z.string().optional(),
    learning_text: z.string().optional(),
  })
  .loose();

/**
 * The documented shape of one ACE operation, as a well-behaved caller (or an LLM tool call)
 * sends it. `type` is case-insensitive. `applyBatch` accepts more than this (whatever ACE
 * accepts: numbers as text, `metadata` values as integer strings, …); use this schema to
 * describe tool arguments, e.g. with `z.toJSONSchema(RawOperationSchema)`.
 *
 * @example
 * RawOperationSchema.parse({ type: 'ADD', section: 'context', issue: 'Dates', insight: 'Use ISO 8601' });
 */
export const RawOperationSchema = z
  .object({
    type: z.string(),
    section: z.string().optional(),
    skill_id: z.string().nullish(),
    issue: z.string().nullish(),
    keywords: z.array(z.string()).optional(),
    insight: z.string().nullish(),
    metadata: z.record(z.string(), z.union([z.number().int(), z.string()])).optional(),
    reason: z.string().nullish(),
    insight_source: z.union([RawInsightSourceSchema, z.array(RawInsightSourceSchema)]).nullish(),
    learning_index: z.number().int().nullish(),
    reflection_index: z.number().int().nullish(),
    reflection_indices: z.array(z.number().int()).optional(),
  })
  .loose();

/** The documented shape of an ACE `UpdateBatch`. */
export const RawBatchSchema = z.object({ reasoning: z.string().optional(), operations: z.array(RawOperationSchema) }).loose();

/** A raw operation of the documented shape. */
export type RawOperation = z.infer<typeof RawOperationSchema>;

/** A raw batch of the documented shape. */
export type RawBatch = z.infer<typeof RawBatchSchema>;

/** An operation after ACE's `from_json` normalisation: what the Skillbook applies. */
export interface ParsedOperation {
  /** Index in the batch's `operations` list. */
  readonly opIndex: number;
  readonly type: OpType;
  /** The section as given (`str()`-ed); ADD normalises it. */
  readonly section: string;
  readonly skillId: string | null;
  readonly issue: string | null;
  readonly keywords: readonly string[];
  readonly insight: string | null;
  /** `metadata` with integer values (beyond 2^53 they are approximate). */
  readonly metadata: Readonly<Record<string, number>>;
  /** The sign of `metadata.delta` (missing → 0): what TAG counts. */
  readonly delta: -1 | 0 | 1;
  readonly reason: string | null;
  /** Canonical sources, or `null` when none were given. */
  readonly sources: readonly InsightSource[] | null;
}

/** The outcome of parsing one operation or a batch. */
export type ParseOperationResult =
  | { readonly ok: true; readonly op: ParsedOperation }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

const TYPES: ReadonlySet<string> = new Set(['ADD', 'UPDATE', 'TAG', 'REMOVE']);

/** The `metadata` of an operation that has none. */
const NO_METADATA: Readonly<Record<string, number>> = Object.freeze(Object.create(null) as Record<string, number>);

/**
 * Parses one raw operation exactly as ACE's `UpdateOperation.from_json` does: `type` is
 * upper-cased and must be ADD/UPDATE/TAG/REMOVE; text is `str()`-ed and trimmed (blank →
 * absent); keywords are read only from a list; `metadata` values go through `int()`;
 * `insight_source` is one object or a list of objects. Never throws.
 *
 * @example
 * const r = parseOperation({ type: 'tag', skill_id: 'context-00001', metadata: { delta: '-3' } });
 * if (r.ok) r.op.delta; // -1
 */
export function parseOperation(raw: unknown, opIndex = 0): ParseOperationResult {
  try {
    return parseDict(raw, opIndex);
  } catch (e) {
    if (e instanceof PyError) return { ok: false, error: errorInfo('invalid_operation', e.message, { opIndex }) };
    // Reading a caller's value can only fail on exotic objects (throwing getters, proxies).
    return { ok: false, error: errorInfo('invalid_operation', `unreadable operation: ${String(e)}`, { opIndex }) };
  }
}

function parseDict(raw: unknown, opIndex: number): ParseOperationResult {
  if (!isDict(raw)) return { ok: false, error: errorInfo('invalid_operation', 'an operation must be a JSON object', { opIndex }) };
  const metadataRaw = dictGet(raw, 'metadata');
  if (!dictHas(raw, 'type')) return { ok: false, error: errorInfo('invalid_operation', "an operation needs a 'type'", { opIndex }) };
  const type = pyStr(dictGet(raw, 'type')).toUpperCase();
  if (!TYPES.has(type)) {
    return { ok: false, error: errorInfo('unknown_operation_type', `Invalid operation type: ${type}`, { opIndex }) };
  }
  const sources = coerceInsightSources(dictGet(raw, 'insight_source'));
  const rawKeywords = dictGet(raw, 'keywords');
  const keywords = Array.isArray(rawKeywords) ? normalizeKeywords(rawKeywords) : [];
  const issue = normalizeOptionalText(dictGet(raw, 'issue'));
  const insight = normalizeOptionalText(dictGet(raw, 'insight'));
  const reason = normalizeOptionalText(dictGet(raw, 'reason'));
  const section = dictHas(raw, 'section') ? pyStr(dictGet(raw, 'section')) : '';
  const rawId = dictGet(raw, 'skill_id');
  const skillId = rawId === null || rawId === undefined ? null : pyStr(rawId);
  // a prototype-less object is a dictionary in V8 (hundreds of bytes): made only for metadata that is there
  let metadata: Record<string, number> = NO_METADATA;
  let delta: -1 | 0 | 1 = 0;
  if (isDict(metadataRaw)) {
    metadata = Object.create(null) as Record<string, number>;
    for (const [key, value] of dictEntries(metadataRaw)) {
      const n = pyInt(value);
      metadata[key] = Number(n);
      if (key === 'delta') delta = n > 0n ? 1 : n < 0n ? -1 : 0;
    }
  }
  const op: ParsedOperation = {
    opIndex,
    type: type as OpType,
    section,
    skillId,
    issue,
    keywords,
    insight,
    metadata,
    delta,
    reason,
    sources,
  };
  return { ok: true, op };
}

/** The outcome of parsing a batch. */
export type ParseBatchResult =
  | { readonly ok: true; readonly ops: readonly ParsedOperation[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * Parses a raw batch as ACE's `UpdateBatch.from_json` does: an object whose `operations` list
 * holds the operations; items that are not objects are ignored, and so is an `operations`
 * value that is not a list. JSON text is accepted too. All operations are parsed before any is
 * applied, so a malformed operation anywhere refuses the batch, and so does one past `limits`
 * (see {@link checkOperationLimits}). Never throws.
 */
export function parseBatch(raw: unknown, limits?: OperationLimits): ParseBatchResult {
  try {
    return parseBatchValue(raw, limits);
  } catch (e) {
    return unreadableBatch(e);
  }
}

/**
 * Parses `raw` as the only operation of a batch: what `parseBatch({ operations: [raw] }, limits)`
 * says of it, without the batch around it — `null` for a value that is not an object (a batch
 * ignores it). Never throws. (`SkillbookDraft.applyOperation`, one tool call's write.)
 */
export function parseOnlyOperation(raw: unknown, limits?: OperationLimits): ParseOperationResult | null {
  try {
    return parseBatchItem(raw, 0, limits);
  } catch (e) {
    return unreadableBatch(e);
  }
}

function unreadableBatch(e: unknown): { readonly ok: false; readonly error: SkillbookErrorInfo } {
  // Only exotic caller values (throwing getters, hostile proxies) get here.
  return { ok: false, error: errorInfo('invalid_batch', `unreadable batch: ${String(e)}`) };
}

function parseBatchValue(raw: unknown, limits: OperationLimits | undefined): ParseBatchResult {
  let payload = raw;
  if (typeof raw === 'string') {
    const parsed = parsePyJson(raw);
    if (!parsed.ok) return { ok: false, error: errorInfo('invalid_json', `the batch is not valid JSON: ${parsed.message}`) };
    payload = parsed.value;
  }
  if (!isDict(payload)) {
    return { ok: false, error: errorInfo('invalid_batch', 'a batch must be a JSON object with an "operations" list') };
  }
  const items = dictGet(payload, 'operations');
  if (!Array.isArray(items)) return { ok: true, ops: [] };
  // sized to the items rather than grown by push (a first push reserves 17 slots; a tool call is a batch of one)
  const ops = new Array<ParsedOperation>(items.length);
  let count = 0;
  for (let i = 0; i < items.length; i++) {
    const result = parseBatchItem(items[i], i, limits);
    if (result === null) continue;
    if (!result.ok) return result;
    ops[count++] = result.op;
  }
  ops.length = count;
  return { ok: true, ops };
}

/**
 * One item of a batch's `operations` list at `opIndex`, as {@link parseBatch} reads it: `null`
 * for an item that is not an object (ACE ignores it); otherwise the parsed operation, or why it
 * is refused — malformed, or past `limits`. Throws only for an exotic value (a Proxy whose
 * traps throw), which the batch as a whole reports.
 */
function parseBatchItem(item: unknown, opIndex: number, limits: OperationLimits | undefined): ParseOperationResult | null {
  if (!isDict(item)) return null;
  const result = parseOperation(item, opIndex);
  if (!result.ok || !limits) return result;
  const over = checkOperationLimits(result.op, limits);
  return over ? { ok: false, error: over } : result;
}
