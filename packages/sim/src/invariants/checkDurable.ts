import type { Skillbook } from '@cohort/skillbook';
import type { DurableRun } from '../durable/runDurable.ts';
import { fromFloor } from '../durable/freeMerges.ts';
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
 * A child whose outcome was recorded, but not where it merged, before the crash may merge
 * earlier among its parent's writes than it did without the crash — never before the point the
 * records show the parent had got to, unless its turn was recorded (the engine's documented
 * limits: as if that child had been faster; see `freeMerges.ts`). Where the crash left such
 * merges, the resumed run may instead end as the tree run without the crash with every merge
 * where the resumed run made it (`faster`), and each of those merges must be at or past that
 * point; anything else is a violation.
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
  const plain = differences(d.crashed, d.reference, d.initial, 'without the crash');
  const where = d.crashed.crashed ?? 'no crash (the crash point never came; the same id ran again)';
  const ref = normalised(d.reference, d.initial);
  const same = `the same outcome, book, ${ref.audit.length} audit blocks and ${ref.told.length} told ids`;
  if (violations.length > 0 || plain.length === 0) {
    return verdict(11, violations.concat(plain), `${where}: the resumed run ends with ${same}`);
  }
  const early = d.free.filter((m) => !fromFloor(m));
  const faster = d.faster ? d.faster.hangs.map((h) => `run with the faster children: ${h}`) : [];
  if (d.faster) faster.push(...differences(d.crashed, d.faster, d.initial, 'with those children faster'));
  if (d.faster && early.length === 0 && faster.length === 0) {
    return verdict(
      11,
      [],
      `${where}: ${d.free.length} merge(s) of outcomes recorded but not placed at the crash, none earlier than the records allow; ` +
        'the resumed run ends as the run without the crash with those children that fast',
    );
  }
  for (const m of early) {
    const at = (p: { writes: number; spawns: number } | null) => (p ? `${p.writes} writes and ${p.spawns} spawns` : 'nowhere');
    say(`child ${m.child} merged into session ${m.session} of ${m.unit} after ${at(m.place)}, before the ${at(m.floor)} recorded`);
  }
  return verdict(11, violations.concat(plain, faster), where);
}

/** How `got` ends otherwise than `want` (its outcome, book, audit, told ids), `how` naming `want`. */
function differences(got: DurableRun, want: DurableRun, initial: Skillbook, how: string): string[] {
  const out: string[] = [];
  const say = (m: string): number => out.push(m);
  const a = normalised(got, initial);
  const b = normalised(want, initial);
  const outcome = (r: DurableRun): string => (r.outcome ? `${r.outcome.status}${r.outcome.kind ? ` (${r.outcome.kind})` : ''}` : 'none');
  if (outcome(got) !== outcome(want)) say(`the root ended ${outcome(got)}; ${how}, ${outcome(want)}`);
  compare('the book', a.book, b.book, how, say);
  compare('the audit', a.audit, b.audit, how, say);
  compare('the ids told', a.told, b.told, how, say);
  return out;
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

function compare(what: string, got: readonly string[], want: readonly string[], how: string, say: (m: string) => void): void {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (got[i] === want[i]) continue;
    say(`${what} differs at ${i + 1}: ${got[i] ?? '(nothing)'}; ${how}: ${want[i] ?? '(nothing)'}`);
    return;
  }
}
