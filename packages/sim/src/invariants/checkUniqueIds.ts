import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/**
 * Invariant 5 — skill ids are unique: every id the shared allocator handed out in an epoch
 * (to any session, committed, failed or aborted) is distinct and new to the epoch's initial
 * book; every tool result names the skill the tool actually wrote (the ids a session returns
 * are the ids in the book); the final book lists each id once; no id is added twice in the audit.
 *
 * @example
 * checkUniqueIds({ observations, references }).ok;
 */
export function checkUniqueIds(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let allocated = 0;
  for (const { record } of epochsOf(input)) {
    const say = (m: string): number => violations.push(inEpoch(input, record, m));
    for (const m of record.misreported) say(m);
    const owner = new Map<string, string>();
    for (const s of record.sessions.values()) {
      for (const id of s.allocated) {
        allocated += 1;
        const before = owner.get(id);
        if (before !== undefined) say(`${id} was allocated to ${before} and again to ${s.path.join('/')}`);
        else if (record.initial.has(id)) say(`${id} was allocated to ${s.path.join('/')}, but the book already had it`);
        owner.set(id, s.path.join('/'));
      }
    }
    const final = record.final;
    if (!final) continue;
    const ids = [...final.book.skills()].map((s) => s.id);
    if (new Set(ids).size !== ids.length || ids.length !== final.book.size)
      say(`the book lists ${ids.length} skills for ${new Set(ids).size} distinct ids`);
    const added = new Set<string>();
    for (const entry of final.audit) {
      for (const op of entry.ops) {
        if (op.type !== 'ADD') continue;
        if (added.has(op.skill_id) || record.initial.has(op.skill_id))
          say(`the audit adds ${op.skill_id} twice (again by ${entry.path.join('/')})`);
        added.add(op.skill_id);
      }
    }
  }
  return verdict(5, violations, `${allocated} allocated ids, all distinct and as reported; the book and the audit hold each id once`);
}
