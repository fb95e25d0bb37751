import type { Skillbook } from '@cohort/skillbook';
import type { PersistedCommit } from '@cohort/store';

/** A book's skills and a history's blocks with ids renamed by first appearance: two runs compared whatever ids their leases gave. */
export interface Normalised {
  readonly skills: readonly string[];
  readonly blocks: readonly string[];
  /** The `told` value given, every id in it renamed as in the blocks. */
  readonly told?: unknown;
}

/**
 * The book and the audit of the commits, ids numbered in the order the sorted blocks first name
 * them, blocks identified by session name and depth (session ids differ between runs), sorted
 * (the order children finish in differs between runs). An op that names no issue (a TAG, an
 * UPDATE) is sorted by its skill's issue in the book, so blocks that differ only in their skill
 * sort the same way in both runs. `told` (a session's output, say) comes back with every id in
 * it renamed: an id the blocks do not name stays as it is, and differs between runs.
 */
export function normalise(book: Skillbook, commits: readonly PersistedCommit[], told?: unknown): Normalised {
  const label = (b: PersistedCommit['entries'][number]): string => `${b.name ?? '(root)'} depth ${b.path.length - 1}`;
  const blocks = commits
    .flatMap((c) => c.entries)
    .map((b) => ({
      b,
      text: `${label(b)}: ${b.ops.map((op) => `${op.type} ${op.issue ?? book.get(op.skill_id ?? '')?.issue ?? ''}`).join()}`,
    }));
  blocks.sort((x, y) => x.text.localeCompare(y.text));
  const names = new Map<string, string>();
  const name = (id: string): string => {
    let n = names.get(id);
    if (!n) names.set(id, (n = `id${names.size + 1}`));
    return n;
  };
  const blockTexts = blocks.map(({ b }) => `${label(b)}: ${b.ops.map((op) => `${op.type} ${name(op.skill_id ?? '')}`).join(', ')}`);
  const skillTexts: string[] = [];
  for (const id of names.keys()) {
    const s = book.get(id);
    if (s) skillTexts.push(`${name(id)} ${s.section} ${s.issue} / ${s.insight} +${s.helpful_count} -${s.harmful_count}`);
  }
  if (told === undefined) return { skills: skillTexts.sort(), blocks: blockTexts };
  const renamed: unknown = JSON.parse(JSON.stringify(told), (_key, v: unknown) => (typeof v === 'string' ? (names.get(v) ?? v) : v));
  return { skills: skillTexts.sort(), blocks: blockTexts, told: renamed };
}
