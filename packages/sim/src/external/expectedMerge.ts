import { Skillbook } from '@cohort/skillbook';
import type { PlainSkill, Skill } from '@cohort/skillbook';
import type { PersistedCommit } from '@cohort/store';

/** What a skill should be after a merge: its content, flag and counters, or absent; `null`: either is right. */
export type Expected = { readonly skill: ExpectedSkill } | 'absent' | null;

/** The parts of a skill a merge decides. */
export type ExpectedSkill = {
  readonly issue: string;
  readonly insight: string | undefined;
  readonly keywords: readonly string[];
  readonly active: boolean;
} & Readonly<Record<CounterName, number>>;

type CounterName = 'used_count' | 'helpful_count' | 'harmful_count' | 'neutral_count';
const COUNTERS: readonly CounterName[] = ['used_count', 'helpful_count', 'harmful_count', 'neutral_count'];

const key = (id: string, createdAt: string): string => `${createdAt}\u0000${id}`;

/**
 * The renumberings the store made up to revision `upTo` (another program's id and the skill's
 * `created_at` → the id in the book), from the external records of its history.
 */
export function renumberingsUpTo(history: readonly PersistedCommit[], upTo: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of history) {
    if (c.revision > upTo || !c.external) continue;
    for (const [from, to] of c.external.renumbered) {
      const skill = c.external.skills.find((s) => s.id === to);
      if (skill) out.set(key(from, skill.created_at), to);
    }
  }
  return out;
}

/** Another program's book in the store's ids: each renumbered skill under the id it was given. */
export function inBookIds(book: Skillbook, renumbered: ReadonlyMap<string, string>): Skillbook {
  const skills: PlainSkill[] = [];
  for (const s of book.skills()) {
    const to = renumbered.get(key(s.id, s.created_at)) ?? s.id;
    if (to !== s.id && book.get(to)?.created_at === s.created_at) continue;
    skills.push({ ...s, id: to });
  }
  const unique = new Map(skills.map((s) => [s.id, s]));
  return Skillbook.empty().adopt({ skills: [...unique.values()], purged: [], nextId: book.nextId }, { revision: 0 });
}

const sameContent = (a: Skill, b: Skill): boolean =>
  a.issue === b.issue && (a.insight ?? '') === (b.insight ?? '') && a.keywords.join('\u0000') === b.keywords.join('\u0000');

const identical = (a: Skill | undefined, b: Skill | undefined): boolean => !!a && !!b && a.created_at === b.created_at;

const asExpected = (s: Skill): Expected => ({
  skill: {
    issue: s.issue,
    insight: s.insight,
    keywords: s.keywords,
    active: s.active,
    used_count: s.used_count,
    helpful_count: s.helpful_count,
    harmful_count: s.harmful_count,
    neutral_count: s.neutral_count,
  },
});

function expectOne(b: Skill | undefined, d: Skill | undefined, l: Skill | undefined): Expected {
  if (!d && !b) return l ? asExpected(l) : 'absent';
  if (d && !b) return l ? null : asExpected(d);
  if (b && !d) return l ? asExpected(l) : 'absent';
  if (!b || !d) return null;
  if (!l) return 'absent';
  const theirs = !sameContent(b, d);
  const ours = !sameContent(b, l);
  const ourRemoval = b.active && !l.active;
  const content = theirs && !ours && !ourRemoval ? d : l;
  const active = b.active && !d.active && l.active && !ours ? false : l.active;
  const counters = Object.fromEntries(COUNTERS.map((k) => [k, l[k] + Math.max(0, d[k] - b[k])])) as Record<CounterName, number>;
  return { skill: { issue: content.issue, insight: content.insight, keywords: content.keywords, active, ...counters } };
}

/**
 * What the store must make of another program's document `disk`, saved on top of `base` (the
 * version the program really started from: the harness knows it), merged into the live book
 * `live`, skill by skill — the conflict table (docs/internals/conflicts.md), written out on its own: the program's
 * content change applies unless Cohort changed that skill's content (or removed it) since
 * `base`; its removal applies unless Cohort changed the content; its counter increments always
 * count, once; its new skills come in; nothing it never saw changes. `base` and `disk` in the
 * store's ids. Keyed by id in the book.
 */
export function expectedMerge(base: Skillbook, disk: Skillbook, live: Skillbook): Map<string, Expected> {
  const ids = new Set([
    ...[...disk.skills()].map((s) => s.id),
    ...[...base.skills()].map((s) => s.id),
    ...[...live.skills()].map((s) => s.id),
  ]);
  const out = new Map<string, Expected>();
  for (const id of ids) {
    const d = disk.get(id);
    const b0 = base.get(id);
    const b = b0 && (!d || identical(b0, d)) ? b0 : undefined;
    const l0 = live.get(id);
    const mine = d ?? b;
    const l = l0 && (!mine || identical(l0, mine)) ? l0 : undefined;
    // the live book has another skill under this id: the program's was renumbered, the live one stays
    out.set(id, l0 && !l ? asExpected(l0) : expectOne(b, d, l));
  }
  return out;
}

/** How `actual` differs from `expected`, or `null`. */
export function missesExpected(expected: Expected, actual: Skill | undefined): string | null {
  if (expected === null) return null;
  if (expected === 'absent') return actual ? 'should not be there' : null;
  if (!actual) return 'is missing';
  const e = expected.skill;
  const wrong = [
    e.issue !== actual.issue || (e.insight ?? '') !== (actual.insight ?? '') || e.keywords.join() !== actual.keywords.join()
      ? 'content'
      : null,
    e.active !== actual.active ? 'active' : null,
    ...COUNTERS.map((k) => (e[k] !== actual[k] ? `${k} ${actual[k]} (expected ${e[k]})` : null)),
  ].filter((x): x is string => x !== null);
  return wrong.length > 0 ? `differs: ${wrong.join(', ')}` : null;
}
