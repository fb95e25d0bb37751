import { resolve } from 'node:path';
import { formatSkillId } from '@cohort/skillbook';
import type { PlainSkill, Skill, Skillbook } from '@cohort/skillbook';
import { FileStore } from './FileStore.ts';
import type { FileStoreOptions } from './FileStoreOptions.ts';
import { indexByOrigin, liveVersionOf, readCopy } from './inspectCopies.ts';
import { atomicWrite } from './internal/disk/atomicWrite.ts';
import { sameContent, skillSide } from './internal/sequencing/contentConflicts.ts';
import { utf8 } from './internal/disk/digest.ts';
import { nodeFs } from './nodeFs.ts';
import type { StoreOpenErrorCode } from './StoreOpenError.ts';
import type { SkillSide } from './StoreNotice.ts';

/** A skill of the copy that the live book now holds. */
export interface RecoveredSkill {
  /** Its id in the live book (a new one when the live book gave its id to another skill). */
  readonly id: string;
  /** Its id in the copy. */
  readonly copyId: string;
  readonly issue: string;
}

/** A skill of the copy that the live book holds with other content: not taken. */
export interface RecoverConflict {
  readonly skillId: string;
  readonly copyId: string;
  readonly live: SkillSide;
  readonly copy: SkillSide;
}

/** Why a recovery did not happen: the copy (`unreadable_copy`, `invalid_copy`) or the store (as opening it reports). */
export interface RecoverError {
  readonly code: StoreOpenErrorCode | 'unreadable_copy' | 'invalid_copy';
  readonly message: string;
  readonly file: string;
}

/** What {@link recoverCopy} did. */
export type RecoverResult =
  | {
      readonly ok: true;
      readonly document: string;
      readonly copy: string;
      /** The store's revision afterwards. */
      readonly revision: number;
      /** Skills the live book lacked, now in it. */
      readonly taken: readonly RecoveredSkill[];
      /** Skills the live book holds as the copy does. */
      readonly already: number;
      /** Skills the live book holds otherwise: left as they are (settle them by hand, or through a session). */
      readonly conflicts: readonly RecoverConflict[];
    }
  | { readonly ok: false; readonly error: RecoverError };

/** The live book with `skills` added as they are, each under its own id unless the live book has it (then the next free one). */
function withSkills(live: Skillbook, skills: readonly Skill[]): { book: Skillbook; placed: Map<string, string> } {
  let counter = live.nextId;
  const placed = new Map<string, string>();
  const used = new Set<string>();
  const added: PlainSkill[] = skills.map((s) => {
    let id: string = s.id;
    while (live.has(id) || used.has(id)) id = formatSkillId(s.section === 'harness' ? 'harness' : 'context', (counter += 1));
    placed.set(s.id, id);
    used.add(id);
    return { ...s, id };
  });
  return { book: live.adopt({ skills: added, purged: [], nextId: counter }), placed };
}

/**
 * Takes a recovery copy back into the live document: the copy's skills the live book lacks
 * come in as they are (counters, sources and `created_at` kept; under a new id when theirs was
 * given to another skill); skills the live book holds with other content are conflicts it
 * cannot take, listed with both sides and left as they are. It opens the store (waiting for the
 * lock like any writer), brings the document up to date, writes the document with the missing
 * skills as another program would, and lets the store reconcile it — so it is journaled, noticed and
 * safe beside a running Cohort. The copy is not changed. Never throws: a bad copy or a store
 * that does not open is a structured error.
 *
 * @example
 * ```ts
 * const r = await recoverCopy('data/skillbook.json', 'data/skillbook.recovery-1f3a0c2b9d8e7f60.json');
 * if (r.ok) console.log(r.taken.length, 'skills back;', r.conflicts.length, 'left to settle by hand');
 * ```
 */
export async function recoverCopy(document: string, copy: string, options: FileStoreOptions = {}): Promise<RecoverResult> {
  const fs = options.fs ?? nodeFs;
  if (resolve(copy) === resolve(document))
    return { ok: false, error: { code: 'invalid_copy', message: 'that is the document itself, not a recovery copy', file: copy } };
  const read = await readCopy(fs, copy);
  if (!read.ok)
    return { ok: false, error: { code: 'unreadable_copy', message: `cannot recover from ${copy}: ${read.message}`, file: copy } };
  const opened = await FileStore.open(document, { ...options, create: false });
  if (!opened.ok) return { ok: false, error: { code: opened.error.code, message: opened.error.message, file: opened.error.file } };
  const store = opened.store;
  try {
    // the document holds the live book: the version the recovery's own write starts from
    const caught = await store.checkpoint();
    if (!caught.ok)
      return {
        ok: false,
        error: { code: caught.error.code === 'locked' ? 'locked' : 'io', message: caught.error.message, file: document },
      };
    const live = store.book;
    const byOrigin = indexByOrigin(live);
    const missing: Skill[] = [];
    const conflicts: RecoverConflict[] = [];
    let already = 0;
    for (const skill of read.book.skills()) {
      const mine = liveVersionOf(live, byOrigin, skill);
      if (!mine) missing.push(skill);
      else if (sameContent(mine, skill) && mine.active === skill.active) already += 1;
      else conflicts.push({ skillId: mine.id, copyId: skill.id, live: skillSide(mine), copy: skillSide(skill) });
    }
    if (missing.length > 0) {
      await atomicWrite(fs, document, utf8(withSkills(live, missing).book.toJSON()));
      await store.load();
    }
    const after = indexByOrigin(store.book);
    const taken = missing.flatMap((s) => {
      const now = liveVersionOf(store.book, after, s);
      return now ? [{ id: now.id, copyId: s.id, issue: s.issue }] : [];
    });
    if (taken.length < missing.length)
      return {
        ok: false,
        error: { code: 'io', message: `${missing.length - taken.length} skills of the copy did not reach the live book`, file: document },
      };
    return { ok: true, document, copy, revision: store.book.revision, taken, already, conflicts };
  } finally {
    await store.close();
  }
}
