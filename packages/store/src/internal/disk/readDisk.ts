import { Skillbook } from '@cohort/skillbook';
import type { StoreFs } from '../../StoreFs.ts';
import type { StoreOpenError } from '../../StoreOpenError.ts';
import { lineAndColumn } from '../../StoreOpenError.ts';
import { fileDigest, fromUtf8, sha256Hex } from './digest.ts';
import { isLedgerFault, readLedger } from './Ledger.ts';
import type { Ledger } from './Ledger.ts';
import type { JournalScan } from '../journal/scanJournal.ts';
import { scanJournal } from '../journal/scanJournal.ts';
import type { SinceEntry } from '../journal/SinceEntry.ts';
import { JournalReplay } from '../journal/JournalReplay.ts';
import type { IdLease } from '../../Store.ts';
import { readSnapshotFile } from '../checkpoint/snapshotFile.ts';
import type { SnapshotRefusal } from '../checkpoint/snapshotFile.ts';
import type { StorePaths } from './StorePaths.ts';
import { tempPath } from './StorePaths.ts';

/** A file as read: its text, digest and identity. */
export interface FileRead {
  readonly text: string | null;
  readonly digest: string;
  readonly fingerprint: string | null;
}

/** A file as looked at: its digest and identity (its bytes read in chunks, not kept). */
export interface FileLook {
  readonly digest: string;
  readonly fingerprint: string | null;
}

/** How the book at the ledger's revision was read: from the snapshot, or (and why) from the document text. */
export type BaseSource = 'snapshot' | SnapshotRefusal | 'not_tried';

/** Everything on disk, read and checked, nothing written. */
export type DiskRead =
  /** No document yet. */
  | { readonly kind: 'missing' }
  /** A document Cohort has not tracked yet. */
  | { readonly kind: 'fresh'; readonly document: FileRead; readonly book: Skillbook }
  | {
      readonly kind: 'tracked';
      readonly ledger: Ledger;
      /** The document, or `null` when only its pending temporary copy exists. */
      readonly document: FileLook | null;
      /** The checkpoint's temporary files that hold what the ledger names (a checkpoint to finish). */
      readonly rollForward: { readonly document: boolean; readonly base: boolean };
      /** The base file was missing or stale but the document matches the ledger: base is rewritten from it. */
      readonly rewriteBase: boolean;
      readonly baseBook: Skillbook;
      /** Where `baseBook` came from. */
      readonly baseSource: BaseSource;
      readonly journal: JournalScan;
      readonly head: Skillbook;
      readonly since: readonly SinceEntry[];
      readonly chain: string;
      /** Id leases granted past the ledger. */
      readonly leases: readonly IdLease[];
      /** A checkpoint's record whose commit point was never written (see `Replayed.interrupted`). */
      readonly interrupted: { readonly offset: number; readonly bytes: number } | null;
    };

type Read<T> = { ok: true; value: T } | { ok: false; error: StoreOpenError };

/** Reads a whole file: its text, digest and identity. */
export async function readText(fs: StoreFs, path: string): Promise<FileRead | null> {
  const bytes = await fs.readFile(path);
  if (!bytes) return null;
  const stat = await fs.stat(path);
  return { text: fromUtf8(bytes), digest: sha256Hex(bytes), fingerprint: stat?.fingerprint ?? null };
}

async function look(fs: StoreFs, path: string): Promise<FileLook | null> {
  const digest = await fileDigest(fs, path);
  if (digest === undefined) return null;
  const stat = await fs.stat(path);
  return { digest, fingerprint: stat?.fingerprint ?? null };
}

/** Parses an ACE document, naming the file and position of what is wrong. */
export function parseDocument(
  text: string | null,
  file: string,
  revision: number,
  code: 'unreadable_document' | 'unreadable_base' = 'unreadable_document',
): Read<Skillbook> {
  if (text === null) return { ok: false, error: { code, message: 'the file is not UTF-8 text', file } };
  const parsed = Skillbook.parse(text, { revision });
  if (parsed.ok) return { ok: true, value: parsed.book };
  const info = parsed.error;
  // the skillbook reports JSON errors the Python way: `line 3 column 14 (char 40)`
  const py = /line (\d+) column (\d+) \(char (\d+)\)/.exec(info.message);
  const js = /position (\d+)/.exec(info.message);
  const position = {
    ...(py
      ? { offset: Number(py[3]), line: Number(py[1]), column: Number(py[2]) }
      : js
        ? { offset: Number(js[1]), ...lineAndColumn(text, Number(js[1])) }
        : {}),
    ...(info.path !== undefined ? { path: info.path } : {}),
  };
  return {
    ok: false,
    error: {
      code: info.code === 'unsupported_schema_version' ? 'unsupported_schema_version' : code,
      message: info.message,
      file,
      ...(Object.keys(position).length > 0 ? { position } : {}),
      cause: info,
    },
  };
}

/**
 * The book at the ledger's revision: from the snapshot when it stands for exactly the
 * ledger's checkpoint (and `trustSnapshot`), else read from `source`, a file whose digest was
 * found to be the ledger's (read again whole and checked again: it may have changed since).
 */
export async function readBaseBook(
  fs: StoreFs,
  paths: StorePaths,
  ledger: Ledger,
  source: string,
  trustSnapshot: boolean,
  snapshotRead?: Promise<Uint8Array | undefined>,
): Promise<Read<{ book: Skillbook; source: BaseSource }>> {
  let refusal: BaseSource = 'not_tried';
  if (trustSnapshot) {
    const snapshot = await readSnapshotFile(snapshotRead ?? fs.readFile(paths.snapshot), ledger);
    if (snapshot.ok) return { ok: true, value: { book: snapshot.book, source: 'snapshot' } };
    refusal = snapshot.reason;
  }
  const bytes = await fs.readFile(source);
  if (!bytes || sha256Hex(bytes) !== ledger.contentDigest) {
    return {
      ok: false,
      error: {
        code: 'unreadable_base',
        message: `the file that held the ledger's revision ${ledger.revision} changed while it was read`,
        file: source,
      },
    };
  }
  const book = parseDocument(fromUtf8(bytes), paths.base, ledger.revision, 'unreadable_base');
  return book.ok ? { ok: true, value: { book: book.value, source: refusal } } : book;
}

/** What reading the files may take on trust. */
export interface ReadDiskOptions {
  /**
   * Read the book at the ledger's revision from the snapshot when it matches (opening a
   * store). Off, the document text is always read and checked in full (`cohort book verify`).
   */
  readonly trustSnapshot?: boolean;
}

/**
 * Reads the document, the ledger, the base and the journal, and checks them, writing nothing:
 * opening a store, `cohort book verify` and the read-only views start here. Returns the
 * first hard error (corruption before the journal's tail, an unreadable document or base, a
 * document of another schema version), naming the file and position.
 *
 * The document and the base are only digested (in chunks) when they hold the ledger's
 * content, and the book at the ledger's revision comes from the snapshot when it matches:
 * the document's text is read whole only when something does not match.
 */
export async function readDisk(fs: StoreFs, paths: StorePaths, options: ReadDiskOptions = {}): Promise<Read<DiskRead>> {
  const ledger = await readLedger(fs, paths.ledger);
  if (isLedgerFault(ledger)) return { ok: false, error: { code: 'unreadable_ledger', message: ledger.message, file: paths.ledger } };
  if (ledger === null) {
    const document = await readText(fs, paths.document);
    const journal = await fs.stat(paths.journal);
    if (journal && journal.size > 0) {
      return {
        ok: false,
        error: { code: 'unreadable_ledger', message: 'the journal exists but the ledger is missing', file: paths.ledger },
      };
    }
    if (!document) return { ok: true, value: { kind: 'missing' } };
    const book = parseDocument(document.text, paths.document, 0);
    return book.ok ? { ok: true, value: { kind: 'fresh', document, book: book.value } } : book;
  }
  // the reads start together, so that each file's reading overlaps the hashing of the others
  // (nothing else writes these files while the store holds the lock; another program's write
  // to the document is judged by what was read, as always)
  const journalRead = fs.readFile(paths.journal);
  const snapshotRead = options.trustSnapshot ? fs.readFile(paths.snapshot) : undefined;
  // awaited below, unless a hard error returns first
  journalRead.catch(() => undefined);
  snapshotRead?.catch(() => undefined);
  const [document, docTmp, base, baseTmp] = await Promise.all([
    look(fs, paths.document),
    look(fs, tempPath(paths.document)),
    look(fs, paths.base),
    look(fs, tempPath(paths.base)),
  ]);
  const rollDocument = document?.digest !== ledger.contentDigest && docTmp?.digest === ledger.contentDigest;
  if (!document && !rollDocument) {
    return {
      ok: false,
      error: {
        code: 'missing_document',
        message: 'the document is missing (the ledger says it was written); restore it, or move the side files away to start over',
        file: paths.document,
      },
    };
  }
  const rollBase = base?.digest !== ledger.contentDigest && baseTmp?.digest === ledger.contentDigest;
  const source =
    base?.digest === ledger.contentDigest
      ? paths.base
      : rollBase
        ? tempPath(paths.base)
        : rollDocument
          ? tempPath(paths.document)
          : document?.digest === ledger.contentDigest
            ? paths.document
            : null;
  if (!source) {
    return {
      ok: false,
      error: {
        code: 'unreadable_base',
        message: `no file holds the ledger's revision ${ledger.revision} (digest ${ledger.contentDigest.slice(0, 12)})`,
        file: paths.base,
      },
    };
  }
  const baseRead = await readBaseBook(fs, paths, ledger, source, options.trustSnapshot ?? false, snapshotRead);
  if (!baseRead.ok) return baseRead;
  const baseBook = baseRead.value.book;
  const bytes = (await journalRead) ?? new Uint8Array(0);
  // each line is replayed as it is read; corruption anywhere still wins over a replay fault, as it is checked first
  const replay = new JournalReplay(baseBook, ledger, paths.journal, bytes);
  // the records before the ledger are history the open does not need: checked, not parsed
  const journal = scanJournal(bytes, 0, 1, (e) => replay.take(e), ledger.journalOffset);
  if (journal.corruption) {
    const c = journal.corruption;
    return {
      ok: false,
      error: {
        code: 'corrupt_journal',
        message: `line ${c.lineNo}: ${c.message}`,
        file: paths.journal,
        position: { offset: c.offset, line: c.lineNo },
      },
    };
  }
  const replayed = replay.result();
  if (!replayed.ok) return replayed;
  const rewriteBase = source !== paths.base && !rollBase;
  const value: DiskRead = {
    kind: 'tracked',
    ledger,
    document: rollDocument ? null : document,
    rollForward: { document: rollDocument, base: rollBase },
    rewriteBase,
    baseBook,
    baseSource: baseRead.value.source,
    journal,
    ...replayed.value,
  };
  return { ok: true, value };
}
