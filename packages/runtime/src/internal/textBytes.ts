import { Buffer } from 'node:buffer';
import type { AppliedOp } from '@cohort/skillbook';

function bytes(text: string | undefined): number {
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

/**
 * The UTF-8 bytes of the text `ops` carry — ids, sections, issues, insights, reasons,
 * keywords, insight sources — what `limits.maxCommitBytes` bounds: about what the ops add to
 * the journal and the document.
 */
export function textBytes(ops: readonly AppliedOp[]): number {
  let total = 0;
  for (const op of ops) {
    total += bytes(op.skill_id) + bytes(op.section) + bytes(op.issue) + bytes(op.insight) + bytes(op.reason);
    if (op.keywords) for (const k of op.keywords) total += bytes(k);
    if (op.insight_source) {
      for (const s of op.insight_source) {
        total += bytes(s.trace_uid) + bytes(s.source_system) + bytes(s.trace_id) + bytes(s.display_name) + bytes(s.relation)
          + bytes(s.sample_question) + bytes(s.operation_type) + bytes(s.error_identification) + bytes(s.learning_text);
      }
    }
  }
  return total;
}
