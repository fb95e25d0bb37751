import type { Skillbook } from '@cohort/skillbook';
import type { Ledger } from './Ledger.ts';
import type { SinceEntry } from '../journal/SinceEntry.ts';

/**
 * What the file store knows of its files, as of its last look (under the lock). A value: every
 * step that looks at or writes the files takes the view it starts from and returns the view
 * after it, and only the store's worker keeps the current one.
 */
export interface DiskView {
  readonly ledger: Ledger;
  /** The book at the ledger's revision (the base file's content). */
  readonly baseBook: Skillbook;
  /** Commits in the journal past the ledger's revision. */
  readonly since: readonly SinceEntry[];
  /** Journal bytes read and checked. */
  readonly journalEnd: number;
  readonly journalLines: number;
  /** The hash chain at the head. */
  readonly chain: string;
  /** The document's fingerprint when it last held the ledger's content (`null`: look again). */
  readonly docFingerprint: string | null;
  /**
   * What the document holds when `docFingerprint` is set but it is not the ledger's content: a
   * version already taken in, left while a late write into `.replaced` is reconciled first.
   */
  readonly docDigest?: string;
  /**
   * The previous document file this writer kept as `.replaced` when its checkpoint replaced it:
   * which file it is, and what it held (`null`: nothing to watch). Another writer's checkpoint
   * puts another file there, which ends the watch.
   */
  readonly replaced: WatchedReplaced | null;
}

/** The `.replaced` file a view watches: its identity, what it held, and its fingerprint when last found unchanged. */
export interface WatchedReplaced {
  readonly identity: string;
  readonly digest: string;
  readonly seen?: string;
}

/** The view of files that hold `book` at the ledger's revision and nothing past it yet. */
export function initialView(ledger: Ledger, book: Skillbook): DiskView {
  return { ledger, baseBook: book, since: [], journalEnd: 0, journalLines: 0, chain: ledger.chain, docFingerprint: null, replaced: null };
}

/** The view after journal lines were appended (or read) at its end: `bytes` more, `lines` more, the chain at `chain`. */
export function afterLines(view: DiskView, bytes: number, lines: number, chain: string, since: readonly SinceEntry[] = []): DiskView {
  return {
    ...view,
    journalEnd: view.journalEnd + bytes,
    journalLines: view.journalLines + lines,
    chain,
    since: since.length === 0 ? view.since : [...view.since, ...since],
  };
}
