/**
 * Insight sources (provenance) as ACE builds them: `InsightSource.from_dict` with its trace
 * identity inference, the canonical key order, and de-duplication by canonical JSON.
 */
import { createHash } from 'node:crypto';
import { dumpsSorted } from './internal/pyJsonText.ts';
import { dictGet, isDict, isPyInt, pyIsDigit, pyInt, pyStr, pyStrip } from './internal/python.ts';
import type { PyDict } from './internal/python.ts';
import type { InsightSource } from './types.ts';

type Dict = PyDict | Readonly<Record<string, unknown>>;

/** ACE `_coerce_str`: `str()`-ed and trimmed, blank → `null`. */
function coerceStr(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = pyStrip(pyStr(value));
  return text === '' ? null : text;
}

/** The first of `sample_id`, `item_id`, `task_id`, `id` that has text. */
function legacyTraceId(payload: Dict): string | null {
  for (const key of ['sample_id', 'item_id', 'task_id', 'id']) {
    const value = coerceStr(dictGet(payload, key));
    if (value !== null) return value;
  }
  return null;
}

/**
 * ACE `_safe_int` for `epoch`: ints are kept, digit strings are converted (`'--1'` raises, as in
 * Python), anything else is dropped. Booleans and ints beyond 2^53 are dropped too (Python
 * would keep them; a JS number cannot represent them faithfully).
 */
function safeEpoch(value: unknown): number | undefined {
  if (isPyInt(value)) return typeof value === 'number' ? value : undefined;
  if (typeof value !== 'string' || !pyIsDigit(pyStrip(value).replace(/^-+/, ''))) return undefined;
  const n = Number(pyInt(value));
  return Number.isSafeInteger(n) ? n : undefined;
}

/** sha256 of the payload's sorted JSON, as ACE names a trace that has no id at all. */
function fingerprintTrace(payload: Dict): string {
  return createHash('sha256').update(dumpsSorted(payload), 'utf8').digest('hex');
}

/**
 * Builds a canonical source (ACE key order, absent fields omitted). Use it to make an
 * {@link InsightSource} from known parts.
 */
export function canonicalSource(s: {
  readonly trace_uid: string;
  readonly source_system: string;
  readonly trace_id: string;
  readonly display_name?: string | null | undefined;
  readonly relation?: string | null | undefined;
  readonly sample_question?: string | null | undefined;
  readonly epoch?: number | null | undefined;
  readonly operation_type?: string | null | undefined;
  readonly error_identification?: string | null | undefined;
  readonly learning_text?: string | null | undefined;
}): InsightSource {
  // built key by key in ACE's order (the document writes sources as they are)
  const out: { -readonly [K in keyof InsightSource]: InsightSource[K] } = {
    trace_uid: s.trace_uid,
    source_system: s.source_system,
    trace_id: s.trace_id,
  };
  if (s.display_name !== null && s.display_name !== undefined) out.display_name = s.display_name;
  if (s.relation !== null && s.relation !== undefined) out.relation = s.relation;
  if (s.sample_question !== null && s.sample_question !== undefined) out.sample_question = s.sample_question;
  if (s.epoch !== null && s.epoch !== undefined) out.epoch = s.epoch;
  if (s.operation_type !== null && s.operation_type !== undefined) out.operation_type = s.operation_type;
  if (s.error_identification !== null && s.error_identification !== undefined) out.error_identification = s.error_identification;
  if (s.learning_text !== null && s.learning_text !== undefined) out.learning_text = s.learning_text;
  return Object.freeze(out);
}

/**
 * ACE `InsightSource.from_dict`: infers `source_system` / `trace_id` from `trace_uid`
 * (`system:id`), falls back to a legacy id key, then to `legacy` and a content fingerprint;
 * `display_name` falls back to the legacy id, then `trace_id`. May raise `PyError`.
 */
export function insightSourceFromDict(payload: Dict): InsightSource {
  const traceUid = coerceStr(dictGet(payload, 'trace_uid'));
  let sourceSystem = coerceStr(dictGet(payload, 'source_system'));
  let traceId = coerceStr(dictGet(payload, 'trace_id'));
  if (traceUid && (sourceSystem === null || traceId === null) && traceUid.includes(':')) {
    const colon = traceUid.indexOf(':');
    sourceSystem = sourceSystem ?? traceUid.slice(0, colon);
    traceId = traceId ?? traceUid.slice(colon + 1);
  }
  if (traceId === null) traceId = legacyTraceId(payload);
  if (sourceSystem === null) sourceSystem = 'legacy';
  if (traceId === null) traceId = fingerprintTrace(payload);
  const displayName = coerceStr(dictGet(payload, 'display_name')) || legacyTraceId(payload) || traceId;
  // TraceIdentity.__post_init__
  const system = pyStrip(sourceSystem) || 'local';
  const id = pyStrip(traceId);
  return canonicalSource({
    trace_uid: traceUid || `${system}:${id}`,
    source_system: system,
    trace_id: id,
    display_name: pyStrip(displayName) || null,
    relation: coerceStr(dictGet(payload, 'relation')),
    sample_question: coerceStr(dictGet(payload, 'sample_question')),
    epoch: safeEpoch(dictGet(payload, 'epoch')),
    operation_type: coerceStr(dictGet(payload, 'operation_type')),
    error_identification: coerceStr(dictGet(payload, 'error_identification')),
    learning_text: coerceStr(dictGet(payload, 'learning_text')),
  });
}

/**
 * ACE `coerce_insight_sources`: one object, or the objects of a list (other items ignored).
 * Returns `null` when the value is neither (ACE's "no sources given").
 */
export function coerceInsightSources(value: unknown): InsightSource[] | null {
  if (isDict(value)) return [insightSourceFromDict(value)];
  if (Array.isArray(value)) return value.filter((item) => isDict(item)).map((item) => insightSourceFromDict(item as Dict));
  return null;
}

/** The canonical JSON (sorted keys) ACE compares sources by. */
export function sourceSignature(source: InsightSource): string {
  return JSON.stringify(Object.entries(source).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * ACE `_append_unique_sources`: `existing` followed by each incoming source whose canonical
 * JSON is not there yet. Returns `existing` itself when nothing is new.
 */
export function appendUniqueSources(existing: readonly InsightSource[], incoming: readonly InsightSource[]): readonly InsightSource[] {
  if (incoming.length === 0) return existing;
  const seen = new Set(existing.map(sourceSignature));
  const out = [...existing];
  for (const source of incoming) {
    const signature = sourceSignature(source);
    if (seen.has(signature)) continue;
    out.push(source);
    seen.add(signature);
  }
  return out.length === existing.length ? existing : out;
}
