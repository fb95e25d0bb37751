import { Skillbook } from '@cohort/skillbook';
import type { Skill } from '@cohort/skillbook';
import { sameContent } from './internal/sequencing/contentConflicts.ts';
import { fromUtf8 } from './internal/disk/digest.ts';
import { RecoveryCopies } from './internal/disk/RecoveryCopies.ts';
import { copyPath, storePaths } from './internal/disk/StorePaths.ts';
import { nodeFs } from './nodeFs.ts';
import type { StoreFs } from './StoreFs.ts';

/** One recovery copy beside a document, compared with the live book. */
export interface CopySummary {
  /** The copy's file name (beside the document). */
  readonly name: string;
  readonly path: string;
  /** Its skills, or `null` when it cannot be read (`message` says why). */
  readonly skills: number | null;
  /** Skills the live book does not have at all: they live only in copies. */
  readonly onlyHere: number;
  /** Skills the live book holds with other content (a conflict the live side won). */
  readonly differing: number;
  readonly message?: string;
}

/** What {@link inspectCopies} found. */
export interface CopiesInspection {
  readonly copies: readonly CopySummary[];
  /** Distinct skills that live only in copies (counted once, however many copies hold them). */
  readonly onlyInCopies: number;
}

/**
 * A skill's version in `live`, matched by id and `created_at` — or, for a copy an earlier
 * version wrote (its skills renumbered within it), by `created_at` and issue.
 */
export function liveVersionOf(live: Skillbook, byOrigin: ReadonlyMap<string, Skill>, skill: Skill): Skill | undefined {
  const same = live.get(skill.id);
  if (same && same.created_at === skill.created_at) return same;
  return byOrigin.get(originKey(skill));
}

/** The key {@link liveVersionOf} matches copies an earlier version wrote by. */
export function originKey(skill: Skill): string {
  return `${skill.created_at}\u0000${skill.issue}`;
}

/** The live book's skills by {@link originKey}. O(n). */
export function indexByOrigin(live: Skillbook): Map<string, Skill> {
  const out = new Map<string, Skill>();
  for (const s of live.skills()) out.set(originKey(s), s);
  return out;
}

/** Reads a recovery copy (an ACE document): the book, or why it cannot be read. */
export async function readCopy(fs: StoreFs, path: string): Promise<{ ok: true; book: Skillbook } | { ok: false; message: string }> {
  const bytes = await fs.readFile(path);
  if (!bytes) return { ok: false, message: 'it does not exist' };
  const text = fromUtf8(bytes);
  if (text === null) return { ok: false, message: 'it is not UTF-8 text' };
  const parsed = Skillbook.parse(text);
  return parsed.ok ? { ok: true, book: parsed.book } : { ok: false, message: `it is not a Skillbook document: ${parsed.error.message}` };
}

/**
 * Compares the recovery copies beside `document` with the live book `live`: per copy, the skills
 * the live book lacks (they live only in copies) and those it holds otherwise, and how many
 * distinct skills live only in copies. Reads only; `cohort book verify` reports it.
 *
 * @example
 * ```ts
 * const { onlyInCopies } = await inspectCopies('data/skillbook.json', store.book);
 * ```
 */
export async function inspectCopies(document: string, live: Skillbook, options: { readonly fs?: StoreFs } = {}): Promise<CopiesInspection> {
  const fs = options.fs ?? nodeFs;
  const paths = storePaths(document);
  const byOrigin = indexByOrigin(live);
  const only = new Set<string>();
  const copies: CopySummary[] = [];
  for (const name of (await new RecoveryCopies(fs, paths).list()).sort()) {
    const path = copyPath(paths, name);
    const read = await readCopy(fs, path);
    if (!read.ok) {
      copies.push({ name, path, skills: null, onlyHere: 0, differing: 0, message: read.message });
      continue;
    }
    let onlyHere = 0;
    let differing = 0;
    for (const skill of read.book.skills()) {
      const mine = liveVersionOf(live, byOrigin, skill);
      if (!mine) {
        onlyHere += 1;
        only.add(originKey(skill));
      } else if (!sameContent(mine, skill) || mine.active !== skill.active) differing += 1;
    }
    copies.push({ name, path, skills: read.book.size, onlyHere, differing });
  }
  return { copies, onlyInCopies: only.size };
}
