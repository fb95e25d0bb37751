import type { ParsedOperation } from './parseOperation.ts';
import { INSIGHT_SOURCE_TEXT_KEYS } from './schemas.ts';
import { errorInfo } from './SkillbookError.ts';
import type { InsightSource, SkillbookErrorInfo } from './types.ts';

/**
 * Bounds on what one operation may carry, for batches from untrusted callers (an LLM's tool
 * calls, a session's `applyBatch`): a 50 MB insight or 100,000 keywords would otherwise be made
 * durable, and every later read, checkpoint and prompt pays for it. Lengths are in characters
 * (UTF-16 code units, JavaScript's `length`), after trimming. Documents are never bounded:
 * `Skillbook.fromJSON` reads whatever ACE wrote.
 */
export interface OperationLimits {
  /** `issue`, `insight`, `reason` and every text field of an insight source. */
  readonly maxTextLength: number;
  /** Keywords of one operation. */
  readonly maxKeywords: number;
  /** One keyword. */
  readonly maxKeywordLength: number;
  /** Insight sources of one operation. */
  readonly maxSources: number;
  /** `skill_id` and `section`. */
  readonly maxIdLength: number;
}

const PROSE = ['issue', 'insight', 'reason'] as const;

function tooLong(op: ParsedOperation, field: string, length: number, limit: number, name: keyof OperationLimits): SkillbookErrorInfo {
  const what =
    name === 'maxKeywords' || name === 'maxSources'
      ? `${length} ${name === 'maxKeywords' ? 'keywords' : 'insight sources'}`
      : `${length} characters`;
  return errorInfo('limit_exceeded', `operation ${op.opIndex}: ${field} has ${what}; the limit is ${limit} (${name})`, {
    opIndex: op.opIndex,
    path: `operations.${op.opIndex}.${field}`,
  });
}

function checkSources(op: ParsedOperation, sources: readonly InsightSource[], limits: OperationLimits): SkillbookErrorInfo | null {
  if (sources.length > limits.maxSources) return tooLong(op, 'insight_source', sources.length, limits.maxSources, 'maxSources');
  for (let i = 0; i < sources.length; i += 1) {
    const source = sources[i] as InsightSource;
    for (const key of INSIGHT_SOURCE_TEXT_KEYS) {
      const value = source[key];
      if (value !== undefined && value.length > limits.maxTextLength)
        return tooLong(op, `insight_source.${i}.${key}`, value.length, limits.maxTextLength, 'maxTextLength');
    }
  }
  return null;
}

/**
 * The first limit `op` breaks, as a `limit_exceeded` refusal naming the field
 * (`operations.0.insight`), its size and the limit; `null` when it keeps them all.
 *
 * @example
 * const parsed = parseOperation({ type: 'ADD', section: 'context', issue: 'x'.repeat(50_000) });
 * if (parsed.ok) checkOperationLimits(parsed.op, limits)?.message;
 * // 'operation 0: issue has 50000 characters; the limit is 20000 (maxTextLength)'
 */
export function checkOperationLimits(op: ParsedOperation, limits: OperationLimits): SkillbookErrorInfo | null {
  if (op.skillId !== null && op.skillId.length > limits.maxIdLength)
    return tooLong(op, 'skill_id', op.skillId.length, limits.maxIdLength, 'maxIdLength');
  if (op.section.length > limits.maxIdLength) return tooLong(op, 'section', op.section.length, limits.maxIdLength, 'maxIdLength');
  for (const field of PROSE) {
    const value = op[field];
    if (value !== null && value.length > limits.maxTextLength)
      return tooLong(op, field, value.length, limits.maxTextLength, 'maxTextLength');
  }
  if (op.keywords.length > limits.maxKeywords) return tooLong(op, 'keywords', op.keywords.length, limits.maxKeywords, 'maxKeywords');
  for (let i = 0; i < op.keywords.length; i += 1) {
    const length = (op.keywords[i] as string).length;
    if (length > limits.maxKeywordLength) return tooLong(op, `keywords.${i}`, length, limits.maxKeywordLength, 'maxKeywordLength');
  }
  return op.sources ? checkSources(op, op.sources, limits) : null;
}
