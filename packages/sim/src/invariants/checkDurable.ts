import type { Skillbook } from '@cohort/skillbook';
import type { DurableRun } from '../durable/runDurable.ts';
import { DURABLE_RUN_ID } from '../durable/SimProcess.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { verdict } from './verdict.ts';

/**
 * Invariant 11 — durable resume: a durable tree whose process crashed, resumed from its records,
 * ends as the same tree run without the crash — the same root outcome, the same book, the same
 * audit blocks in the store (session, path, name, ops, in order) and the same ids told to each
 * session. Ids are compared by where they first appear in the store's history (a lease granted
 * and not recorded before the crash leaves a gap, never a reuse); an id that never landed must
 * be absent from both books.
 *
 * @example
 * checkDurableResume({ observations, references, unhandled: [] }).ok;
 */
export function checkDurableResume(input: CheckInput): InvariantResult {
  const d = input.observations.durable;
  if (!d) return verdict(11, [], 'no durable tree in this run');
  const violations: string[] = [];
  const say = (m: string): number => violations.push(m);
  for (const run of [d.reference, d.crashed]) for (const h of run.hangs) say(`${run === d.reference ? 'reference' : 'crashed'} run: ${h}`);
  const ref = normalised(d.reference, d.initial);
  const got = normalised(d.crashed, d.initial);
  const outcome = (r: DurableRun): string => (r.outcome ? `${r.outcome.status}${r.outcome.kind ? ` (${r.outcome.kind})` : ''}` : 'none');
  if (outcome(d.crashed) !== outcome(d.reference)) say(`the root ended ${outcome(d.crashed)}; without the crash, ${outcome(d.reference)}`);
  compare('the book', got.book, ref.book, say);
  compare('the audit', got.audit, ref.audit, say);
  compare('the ids told', got.told, ref.told, say);
  const where = d.crashed.crashed ?? 'no crash (the crash point never came; the same id ran again)';
  return verdict(
    11,
    violations,
    `${where}: the resumed run ends with the same outcome, book, ${ref.audit.length} audit blocks and ${ref.told.length} told ids`,
  );
}

/**
 * Invariant 12 — recorded once: a child unit whose outcome was recorded before the crash never
 * starts again; a unit starts at most once per process; the root's commit reaches the store at
 * most once, and exactly as often as without the crash.
 *
 * @example
 * checkRecordedOnce({ observations, references, unhandled: [] }).ok;
 */
export function checkRecordedOnce(input: CheckInput): InvariantResult {
  const d = input.observations.durable;
  if (!d) return verdict(12, [], 'no durable tree in this run');
  const violations: string[] = [];
  const run = d.crashed;
  const recorded = new Set(run.recordedBefore);
  const seen = new Set<string>();
  for (const { unitId, process } of run.starts) {
    if (process > 1 && recorded.has(unitId) && unitId !== DURABLE_RUN_ID)
      violations.push(`child unit ${unitId} was recorded before the resume and ran again in process ${process}`);
    const key = `${process} ${unitId}`;
    if (seen.has(key)) violations.push(`unit ${unitId} started twice in process ${process}`);
    seen.add(key);
  }
  const commits = (r: DurableRun): number => (r.history ?? []).filter((c) => c.kind === 'commit').length;
  if (run.appended > 1 || commits(run) > 1)
    violations.push(`the root's commit reached the store ${run.appended} times (${commits(run)} in its history)`);
  if (commits(run) !== commits(d.reference))
    violations.push(`the store holds ${commits(run)} root commits; without the crash, ${commits(d.reference)}`);
  return verdict(
    12,
    violations,
    `${recorded.size} child outcomes recorded before the resume, none run again; the root appended ${run.appended} time(s)`,
  );
}

/** A run's book, audit and told ids with ids renamed by their first appearance in its history. */
function normalised(run: DurableRun, initial: Skillbook): { book: string[]; audit: string[]; told: string[] } {
  const names = new Map<string, string>();
  const name = (id: string): string => {
    if (initial.has(id)) return id;
    let n = names.get(id);
    if (!n) names.set(id, (n = `new${names.size + 1}`));
    return n;
  };
  const audit: string[] = [];
  for (const c of run.history ?? []) {
    if (c.kind !== 'commit') continue;
    for (const b of c.entries) {
      const ops = b.ops.map((op) => `${op.type} ${name(op.skill_id)} ${op.type === 'ADD' ? (op.issue ?? '') : ''}`.trim());
      audit.push(`r${c.revision - initial.revision} ${b.path.join('/')} ${b.name ?? ''}: ${ops.join(', ')}`);
    }
  }
  const landed = (id: string): string => (initial.has(id) || names.has(id) ? name(id) : 'never landed');
  const book = [...run.book.skills()].map(
    (s) =>
      `${landed(s.id)} ${s.section} ${s.active ? 'active' : 'removed'} "${s.issue}" / "${s.insight}" [${s.keywords.join()}] +${s.helpful_count} -${s.harmful_count} =${s.neutral_count}`,
  );
  const told = [...run.told].flatMap(([session, ids]) => ids.map((t) => `${session} "${t.issue}" → ${landed(t.id)}`));
  return { book: book.sort(), audit, told: told.sort() };
}

function compare(what: string, got: readonly string[], want: readonly string[], say: (m: string) => void): void {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (got[i] === want[i]) continue;
    say(`${what} differs at ${i + 1}: ${got[i] ?? '(nothing)'}; without the crash: ${want[i] ?? '(nothing)'}`);
    return;
  }
}
