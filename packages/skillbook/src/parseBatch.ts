/**
 * Batches as ACE's `UpdateBatch.from_json` reads them, and the one op of a tool call as the
 * only operation of a batch: each op parsed (`parseOperation.ts`) and checked against the
 * operation limits before anything is applied.
 */
import { parsePyJson } from './internal/pyJson.ts';
import { dictGet, isDict } from './internal/python.ts';
import { checkOperationLimits } from './operationLimits.ts';
import type { OperationLimits } from './operationLimits.ts';
import { parseOperation, parseOperationFields } from './parseOperation.ts';
import type { OperationFields, ParseFailure, ParseOperationResult, ParsedOperation } from './parseOperation.ts';
import { errorInfo } from './SkillbookError.ts';
import type { SkillbookErrorInfo } from './types.ts';

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
 * Parses the fields of one op as the only operation of a batch: what
 * `parseBatch({ operations: [op] }, limits)` says of it — the parsed op itself, or its
 * refusal. Never throws.
 */
export function parseOnlyOperation(op: OperationFields, limits?: OperationLimits): ParseOperationResult {
  return withinLimits(parseOperationFields(op, 0), limits);
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
  const ops: ParsedOperation[] = [];
  for (let i = 0; i < items.length; i++) {
    const result = parseBatchItem(items[i], i, limits);
    if (result === null) continue;
    if (!result.ok) return result;
    ops.push(result.op);
  }
  return { ok: true, ops };
}

/**
 * One item of a batch's `operations` list at `opIndex`, as {@link parseBatch} reads it: `null`
 * for an item that is not an object (ACE ignores it); otherwise the parsed operation, or why it
 * is refused — malformed, or past `limits`. Throws only for an exotic value (a Proxy whose
 * traps throw), which the batch as a whole reports.
 */
function parseBatchItem(item: unknown, opIndex: number, limits: OperationLimits | undefined): ParseOperationResult | null {
  return isDict(item) ? withinLimits(parseOperation(item, opIndex), limits) : null;
}

/** A parsed op, or its refusal when it breaks `limits`. */
function withinLimits(result: ParseOperationResult, limits: OperationLimits | undefined): ParseOperationResult {
  return result.ok ? (overLimits(result.op, limits) ?? result) : result;
}

/** The refusal of an op that breaks `limits`; null when it keeps them (or there are none). */
function overLimits(op: ParsedOperation, limits: OperationLimits | undefined): ParseFailure | null {
  const over = limits ? checkOperationLimits(op, limits) : null;
  return over ? { ok: false, error: over } : null;
}
