import type { Skillbook } from '@cohort/skillbook';
import type { EpochRecord, SessionRecord } from '../EpochRecord.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/**
 * Invariant 9 — ids as told: the id a session was told for a skill it added is that skill's id
 * in the store's book, whatever other runtimes wrote — it holds the skill the session wrote
 * (its issue) when the session's work landed (it and every ancestor committed), and names no
 * skill at all when that work was discarded (ids are never reused); no two sessions — of any
 * of the runtimes on one store — were told the same id; every id a committed root session's
 * outcome lists as added is in the book.
 *
 * @example
 * checkIdsAsTold({ observations, references, unhandled: [] }).ok;
 */
export function checkIdsAsTold(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let told = 0;
  const w = input.observations.writers;
  const owners = new Map<string, string>();
  for (const [i, { record }] of epochsOf(input).entries()) {
    const inPhase = w !== null && i >= w.first && i < w.first + w.count;
    const book = inPhase ? w.book : (record.final?.book ?? null);
    const say = (m: string): number => violations.push(inEpoch(input, record, m));
    if (!book) {
      if (inPhase) say('the store could not be read after the writers closed');
      continue;
    }
    // an id told twice within one runtime is invariant 5's; across the writers of one store, this one's
    if (!inPhase) owners.clear();
    for (const s of record.sessions.values()) told += checkSession(record, s, book, inPhase ? owners : null, say);
    for (const call of record.calls) {
      const o = call.outcome;
      if (call.parentId !== null || o?.status !== 'committed') continue;
      for (const id of o.added) if (!book.has(id)) say(`root ${o.sessionId} was told it added ${id}, which the book does not hold`);
    }
  }
  return verdict(
    9,
    violations,
    `${told} ids told to sessions: each names that session's skill in the store's book, or nothing when its work was discarded`,
  );
}

/** Checks the ids one session was told; how many. */
function checkSession(
  record: EpochRecord,
  s: SessionRecord,
  book: Skillbook,
  owners: Map<string, string> | null,
  say: (m: string) => void,
): number {
  const issues = new Map<string, string | undefined>();
  for (const item of s.log) if ('own' in item) for (const op of item.own) if (op.type === 'ADD') issues.set(op.skill_id, op.issue);
  const landed = s.path.every((id) => record.sessions.get(id)?.terminals.some((t) => t.type === 'merged') === true);
  const who = `${s.path.join('/')}${record.writer !== null ? ` (writer ${record.writer})` : ''}`;
  for (const id of s.allocated) {
    const before = owners?.get(id);
    if (before !== undefined) say(`${id} was told to ${before} and to ${who}`);
    owners?.set(id, who);
    const skill = book.get(id);
    if (landed && skill?.issue !== issues.get(id))
      say(`${who} was told ${id} for "${issues.get(id) ?? '?'}"; the book has ${skill ? `"${skill.issue}" there` : 'no such skill'}`);
    else if (!landed && skill) say(`${who} was told ${id}, and its work was discarded, yet the book has "${skill.issue}" there`);
  }
  return s.allocated.length;
}
