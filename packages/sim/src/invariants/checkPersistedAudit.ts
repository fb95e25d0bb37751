import type { AuditEntry } from '@cohort/runtime';
import type { PersistedCommit } from '@cohort/store';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/** One audit block, whole: where it landed, whose it is, what it did. */
function key(e: {
  readonly revision: number;
  readonly path: readonly string[];
  readonly name?: string | undefined;
  readonly ops: AuditEntry['ops'];
}): string {
  return `r${e.revision} ${e.path.join('/')} ${e.name ?? '-'} ${JSON.stringify(e.ops)}`;
}

/** The blocks a store persisted for commits past `revision`. */
function persisted(history: readonly PersistedCommit[], revision: number): string[] {
  return history.filter((c) => c.kind === 'commit' && c.revision > revision).flatMap((c) => c.entries.map(key));
}

/** The first difference of two lists of blocks, as multisets, or null. */
function difference(stored: string[], merged: string[]): string | null {
  const a = [...stored].sort();
  const b = [...merged].sort();
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const only =
      a[i] !== undefined && !b.includes(a[i] ?? '')
        ? `the store holds ${a[i]?.slice(0, 160)}, which no runtime merged`
        : `a runtime merged ${b[i]?.slice(0, 160)}, which the store does not hold`;
    return `${a.length} blocks persisted, ${b.length} merged: ${only}`;
  }
  return null;
}

/**
 * Invariant 10 — the persisted audit is what the runtimes merged: the store's history (read back
 * from the store, after the runtimes settled) holds, past the revision they started from,
 * exactly the audit blocks the runtimes merged — each session's block, under its path and
 * name, with its ops, at its revision, and nothing else. For several runtimes on one store:
 * the union of their audits.
 *
 * @example
 * checkPersistedAudit({ observations, references, unhandled: [] }).ok;
 */
export function checkPersistedAudit(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let blocks = 0;
  const w = input.observations.writers;
  for (const [i, { record }] of epochsOf(input).entries()) {
    if (w !== null && i >= w.first && i < w.first + w.count) continue;
    if (!record.history || !record.final) continue;
    const merged = record.final.audit.map(key);
    blocks += merged.length;
    const diff = difference(persisted(record.history, record.initial.revision), merged);
    if (diff) violations.push(inEpoch(input, record, diff));
  }
  if (w) {
    const records = input.observations.epochs.slice(w.first, w.first + w.count);
    const merged = records.flatMap((r) => r.final?.audit ?? []).map(key);
    blocks += merged.length;
    if (!w.history) violations.push("the history of the writers' store could not be read");
    else {
      const diff = difference(persisted(w.history, w.initial.revision), merged);
      if (diff) violations.push(`the writers' store: ${diff}`);
    }
  }
  return verdict(
    10,
    violations,
    `${blocks} audit blocks merged, each persisted as merged (session, path, name, ops, revision), nothing else`,
  );
}
