/**
 * Raw operations and batches: their documented shape (zod schemas, for tool arguments), and
 * the parsing of an operation with ACE's `UpdateOperation.from_json` leniency (batches:
 * `parseBatch.ts`).
 */
import { z } from 'zod';
import { coerceInsightSources } from './insightSource.ts';
import { PyError, dictEntries, dictGet, isDict, pyInt, pyStr } from './internal/python.ts';
import { normalizeKeywords, normalizeOptionalText } from './normalize.ts';
import { errorInfo } from './SkillbookError.ts';
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
    if (!isDict(raw)) return { ok: false, error: errorInfo('invalid_operation', 'an operation must be a JSON object', { opIndex }) };
  } catch (e) {
    return unparsable(e, opIndex);
  }
  return parseWith(raw, dictGet, opIndex);
}

/**
 * An operation whose every field is an own property of a plain object, `undefined` when absent:
 * what code builds from arguments a schema has checked (the runtime's tools). Its fields are
 * read as properties, not as a caller's dict whose every key must be checked to be its own
 * (ACE's `d.get`), and parsed by the same rules.
 */
export interface OperationFields {
  readonly type: string;
  readonly section: string | undefined;
  readonly skill_id: string | null | undefined;
  readonly issue: string | null | undefined;
  readonly keywords: readonly string[] | undefined;
  readonly insight: string | null | undefined;
  readonly metadata: Readonly<Record<string, number | string>> | undefined;
  readonly reason: string | null | undefined;
  readonly insight_source: RawOperation['insight_source'];
}

/** {@link parseOperation} of an op of {@link OperationFields}: the same result, read as properties. Never throws. */
export function parseOperationFields(op: OperationFields, opIndex = 0): ParseOperationResult {
  return parseWith(op, fieldOf, opIndex);
}

/** A refused parse. */
export type ParseFailure = Extract<ParseOperationResult, { readonly ok: false }>;

/** How a field is read: from a caller's dict (ACE's `d.get`) or as a property. */
type ReadField<T> = (raw: T, key: keyof OperationFields) => unknown;

const fieldOf: ReadField<OperationFields> = (op, key) => op[key];

/** Parses the fields `read` finds in `raw`; whatever reading them throws is the op's refusal. */
function parseWith<T>(raw: T, read: ReadField<T>, opIndex: number): ParseOperationResult {
  try {
    const op = parseFields(raw, read, opIndex);
    return 'ok' in op ? op : { ok: true, op };
  } catch (e) {
    return unparsable(e, opIndex);
  }
}

function unparsable(e: unknown, opIndex: number): ParseFailure {
  if (e instanceof PyError) return { ok: false, error: errorInfo('invalid_operation', e.message, { opIndex }) };
  // Reading a caller's value can only fail on exotic objects (throwing getters, proxies).
  return { ok: false, error: errorInfo('invalid_operation', `unreadable operation: ${String(e)}`, { opIndex }) };
}

/** ACE's `from_json`, field by field, in its order (a getter with side effects sees that order). */
function parseFields<T>(raw: T, read: ReadField<T>, opIndex: number): ParsedOperation | ParseFailure {
  const metadataRaw = read(raw, 'metadata');
  const given = read(raw, 'type');
  if (given === undefined) return noType(opIndex);
  const type = opType(given, opIndex);
  if (typeof type !== 'string') return type;
  const sources = coerceInsightSources(read(raw, 'insight_source'));
  const keywords = keywordsOf(read(raw, 'keywords'));
  const issue = normalizeOptionalText(read(raw, 'issue'));
  const insight = normalizeOptionalText(read(raw, 'insight'));
  const reason = normalizeOptionalText(read(raw, 'reason'));
  const sectionRaw = read(raw, 'section');
  const section = sectionRaw !== undefined ? pyStr(sectionRaw) : '';
  const skillId = skillIdOf(read(raw, 'skill_id'));
  const metadata = metadataOf(metadataRaw);
  return { opIndex, type, section, skillId, issue, keywords, insight, metadata, delta: deltaOf(metadata), reason, sources };
}

function noType(opIndex: number): ParseFailure {
  return { ok: false, error: errorInfo('invalid_operation', "an operation needs a 'type'", { opIndex }) };
}

/** ACE's type: `str()`-ed and upper-cased, one of the four; or why not. */
function opType(value: unknown, opIndex: number): OpType | ParseFailure {
  const given = pyStr(value);
  const type = given.toUpperCase();
  if (TYPES.has(type)) return type as OpType;
  return { ok: false, error: errorInfo('unknown_operation_type', `Invalid operation type: ${type}`, { opIndex }) };
}

/** Keywords are read only from a list. */
function keywordsOf(value: unknown): readonly string[] {
  return Array.isArray(value) ? normalizeKeywords(value) : NO_KEYWORDS;
}

/** The keywords of an operation that gives none: one frozen list for all of them. */
const NO_KEYWORDS: readonly string[] = Object.freeze([]);

function skillIdOf(value: unknown): string | null {
  return value === null || value === undefined ? null : pyStr(value);
}

/** `metadata` with each value through `int()` (beyond 2^53 approximate), or none. */
function metadataOf(value: unknown): Readonly<Record<string, number>> {
  if (!isDict(value)) return NO_METADATA;
  const metadata = Object.create(null) as Record<string, number>;
  for (const [key, item] of dictEntries(value)) metadata[key] = Number(pyInt(item));
  return metadata;
}

/** The sign of `metadata.delta` (missing → 0): what TAG counts. */
function deltaOf(metadata: Readonly<Record<string, number>>): -1 | 0 | 1 {
  const delta = metadata['delta'] ?? 0;
  return delta > 0 ? 1 : delta < 0 ? -1 : 0;
}
