import type { Skillbook } from '@cohort/skillbook';
import type { PersistedBlock, PersistedCommit } from '../../Store.ts';
import { blocksOf } from './JournalLine.ts';
import type { FullBlock, RecordLine } from './JournalLine.ts';

/** The pseudo-session changes taken in from other writers are attributed to. */
export const EXTERNAL_SESSION = 'external';

/** The session a block of a commit line is attributed to, as history and inspection name it (`name` only when it has one). */
export function blockSession(b: FullBlock): { readonly sessionId: string; readonly path: readonly string[]; readonly name?: string } {
  return { sessionId: b.session, path: b.path, ...(b.name === undefined ? {} : { name: b.name }) };
}

/** A journal record as history shows it, or `null` for a record that is not a change of the book (a lease). */
export function persistedCommit(line: RecordLine): PersistedCommit | null {
  if (line.t === 'lease') return null;
  if (line.t === 'commit') {
    const entries = blocksOf(line).map((b): PersistedBlock => ({ ...blockSession(b), ops: b.ops, at: b.at, revision: line.rev }));
    return { kind: 'commit', revision: line.rev, writerId: line.writer, sessionId: line.session, path: line.path, at: line.at, entries };
  }
  const block: PersistedBlock = {
    sessionId: EXTERNAL_SESSION,
    path: [EXTERNAL_SESSION],
    name: line.reason,
    ops: [],
    at: line.at,
    revision: line.rev,
  };
  const base = {
    kind: 'external' as const,
    revision: line.rev,
    writerId: line.writer,
    sessionId: EXTERNAL_SESSION,
    path: [EXTERNAL_SESSION],
    at: line.at,
    entries: [block],
  };
  // a first-format mark recorded that the document was re-based, not what it held
  if (line.t === 'mark') return base;
  const document = line.theirs ? { document: line.theirs.digest } : {};
  return {
    ...base,
    external: {
      reason: line.reason,
      skills: line.skills,
      purged: line.purged,
      nextId: line.next,
      renumbered: new Map(line.renumbered),
      ...document,
    },
  };
}

/** A store's first change when it was created with content: every skill of `book`, taken in (reason `created`). */
export function createdCommit(book: Skillbook, writerId: string, at: number): PersistedCommit {
  const block: PersistedBlock = {
    sessionId: EXTERNAL_SESSION,
    path: [EXTERNAL_SESSION],
    name: 'created',
    ops: [],
    at,
    revision: book.revision,
  };
  return {
    kind: 'external',
    revision: book.revision,
    writerId,
    sessionId: EXTERNAL_SESSION,
    path: [EXTERNAL_SESSION],
    at,
    entries: [block],
    external: { reason: 'created', skills: [...book.skills()], purged: [], nextId: book.nextId, renumbered: new Map() },
  };
}
