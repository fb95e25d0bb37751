import { Buffer } from 'node:buffer';
import type { AppliedOp } from '@cohort/skillbook';

const lengthOf = (text: string): number => text.length;
const NO_KEYWORDS: readonly string[] = [];
const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

function sized(text: string | undefined, size: (text: string) => number): number {
  return text === undefined ? 0 : size(text);
}

/**
 * The sizes of the text `op` carries — its id, section, issue, insight, reason, keywords,
 * insight sources — by `size`. (No closure made per call: under esbuild's keepNames, as `tsx`
 * runs code, each named closure costs a `__name` call — a fifth of a write's time here.)
 */
function measure(op: AppliedOp, size: (text: string) => number): number {
  let total = size(op.skill_id) + size(op.section) + sized(op.issue, size) + sized(op.insight, size) + sized(op.reason, size);
  // indexed, not for-of: an iterator per op where V8 does not inline this (every write runs it)
  const keywords = op.keywords ?? NO_KEYWORDS;
  for (let i = 0; i < keywords.length; i++) total += size(keywords[i] as string);
  if (!op.insight_source) return total;
  for (const s of op.insight_source) {
    total +=
      size(s.trace_uid) +
      size(s.source_system) +
      size(s.trace_id) +
      sized(s.display_name, size) +
      sized(s.relation, size) +
      sized(s.sample_question, size) +
      sized(s.operation_type, size) +
      sized(s.error_identification, size) +
      sized(s.learning_text, size);
  }
  return total;
}

/**
 * The characters (UTF-16 code units) of the text `ops` carry: cheap, and a bound on their UTF-8
 * bytes both ways (`chars ≤ bytes ≤ 3 × chars`), so the exact count ({@link textBytes}) is
 * needed only for a commit near `limits.maxCommitBytes`.
 */
export function textLength(ops: readonly AppliedOp[]): number {
  let total = 0;
  for (const op of ops) total += measure(op, lengthOf);
  return total;
}

/** {@link textLength} of one op. */
export function opTextLength(op: AppliedOp): number {
  return measure(op, lengthOf);
}

/** The UTF-8 bytes of the text `ops` carry: what `limits.maxCommitBytes` bounds, about what they add to the journal and the document. */
export function textBytes(ops: readonly AppliedOp[]): number {
  let total = 0;
  for (const op of ops) total += measure(op, bytesOf);
  return total;
}
