import { Skillbook } from '@cohort/skillbook';
import type { StoreFs } from '../StoreFs.ts';
import type { StoreOpenError } from '../StoreOpenError.ts';
import { lineAndColumn } from '../StoreOpenError.ts';
import { chainDigest, fromUtf8, sha256Hex } from './digest.ts';
import type { CommitLine } from './JournalLine.ts';
import { isLedgerFault, readLedger } from './Ledger.ts';
import type { Ledger } from './Ledger.ts';
import type { JournalEntry, JournalScan } from './scanJournal.ts';
import { scanJournal } from './scanJournal.ts';
import type { StorePaths } from './StorePaths.ts';
import { tempPath } from './StorePaths.ts';

/** A commit past the ledger's revision, with the chain digest after it. */
export interface SinceEntry {
  readonly line: CommitLine;
  readonly chain: string;
}

/** A file as read: its text, digest and identity. */
export interface FileRead {
  readonly text: string | null;
  readonly digest: string;
  readonly fingerprint: string | null;
}

/** Everything on disk, read and checked, nothing written. */
export type DiskRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'fresh'; readonly document: FileRead; readonly book: Skillbook }
  | {
      readonly kind: 'tracked';
      readonly ledger: Ledger;
      /** The document, or `null` when only its pending temporary copy exists. */
      readonly document: FileRead | null;
      /** The checkpoint's temporary files that hold what the ledger names (a checkpoint to finish). */
      readonly rollForward: { readonly document: boolean; readonly base: boolean };
      /** The base file was missing or stale but the document matches the ledger: base is rewritten from it. */
      readonly rewriteBase: boolean;
      readonly baseBook: Skillbook;
      readonly journal: JournalScan;
      readonly head: Skillbook;
      readonly since: readonly SinceEntry[];
      readonly chain: string;
    };

type Read<T> = { ok: true; value: T } | { ok: false; error: StoreOpenError };

async function readText(fs: StoreFs, path: string): Promise<FileRead | null> {
  const bytes = await fs.readFile(path);
  if (!bytes) return null;
  const stat = await fs.stat(path);
  return { text: fromUtf8(bytes), digest: sha256Hex(bytes), fingerprint: stat?.fingerprint ?? null };
}

/** Parses an ACE document, naming the file and position of what is wrong. */
export function parseDocument(text: string | null, file: string, revision: number, code: 'unreadable_document' | 'unreadable_base' = 'unreadable_document'): Read<Skillbook> {
  if (text === null) return { ok: false, error: { code, message: 'the file is not UTF-8 text', file } };
  const parsed = Skillbook.parse(text, { revision });
  if (parsed.ok) return { ok: true, value: parsed.book };
  const info = parsed.error;
  // the skillbook reports JSON errors the Python way: `line 3 column 14 (char 40)`
  const py = /line (\d+) column (\d+) \(char (\d+)\)/.exec(info.message);
  const js = /position (\d+)/.exec(info.message);
  const position = {
    ...(py ? { offset: Number(py[3]), line: Number(py[1]), column: Number(py[2]) } : js ? { offset: Number(js[1]), ...lineAndColumn(text, Number(js[1])) } : {}),
    ...(info.path !== undefined ? { path: info.path } : {}),
  };
  return {
    ok: false,
    error: {
      code: info.code === 'unsupported_schema_version' ? 'unsupported_schema_version' : code,
      message: info.message, file, ...(Object.keys(position).length > 0 ? { position } : {}), cause: info,
    },
  };
}

/** Replays the journal's commits past the ledger's revision onto the base book, checking order and the hash chain. */
export function replayJournal(baseBook: Skillbook, ledger: Ledger, entries: readonly JournalEntry[], file: string): Read<{ head: Skillbook; since: SinceEntry[]; chain: string }> {
  // one draft for the whole journal: each commit is replayed into it, and the book is built once
  const head = baseBook.edit();
  let chain = ledger.chain;
  const since: SinceEntry[] = [];
  const fault = (e: JournalEntry, message: string): Read<never> => ({
    ok: false, error: { code: 'corrupt_journal', message, file, position: { offset: e.offset, line: e.lineNo } },
  });
  for (const e of entries) {
    if (e.offset < ledger.journalOffset) continue;
    if (e.line.t === 'mark') {
      if (e.line.rev > head.revision) return fault(e, `mark at revision ${e.line.rev} is past the book's revision ${head.revision}`);
      continue;
    }
    if (e.line.rev !== head.revision + 1 || e.line.prev !== chain) {
      return fault(e, `commit at revision ${e.line.rev} does not follow revision ${head.revision} (chain ${e.line.prev} ≠ ${chain})`);
    }
    const replayed = head.replay(e.line.ops);
    if (!replayed.ok) return fault(e, `commit at revision ${e.line.rev} does not replay: ${replayed.error.message}`);
    chain = chainDigest(chain, e.body);
    since.push({ line: e.line, chain });
  }
  return { ok: true, value: { head: head.finish(), since, chain } };
}

/**
 * Reads the document, the ledger, the base and the journal, and checks them, writing nothing:
 * opening a store, `cohort book verify` and the read-only views start here. Returns the
 * first hard error (corruption before the journal's tail, an unreadable document or base, a
 * document of another schema version), naming the file and position.
 */
export async function readDisk(fs: StoreFs, paths: StorePaths): Promise<Read<DiskRead>> {
  const ledger = await readLedger(fs, paths.ledger);
  if (isLedgerFault(ledger)) return { ok: false, error: { code: 'unreadable_ledger', message: ledger.message, file: paths.ledger } };
  const document = await readText(fs, paths.document);
  if (ledger === null) {
    const journal = await fs.stat(paths.journal);
    if (journal && journal.size > 0) {
      return { ok: false, error: { code: 'unreadable_ledger', message: 'the journal exists but the ledger is missing', file: paths.ledger } };
    }
    if (!document) return { ok: true, value: { kind: 'missing' } };
    const book = parseDocument(document.text, paths.document, 0);
    return book.ok ? { ok: true, value: { kind: 'fresh', document, book: book.value } } : book;
  }
  const docTmp = await readText(fs, tempPath(paths.document));
  const rollDocument = document?.digest !== ledger.contentDigest && docTmp?.digest === ledger.contentDigest;
  if (!document && !rollDocument) {
    return { ok: false, error: { code: 'missing_document', message: 'the document is missing (the ledger says it was written); restore it, or move the side files away to start over', file: paths.document } };
  }
  const base = await readText(fs, paths.base);
  const baseTmp = await readText(fs, tempPath(paths.base));
  const rollBase = base?.digest !== ledger.contentDigest && baseTmp?.digest === ledger.contentDigest;
  const source = base?.digest === ledger.contentDigest ? base : rollBase ? baseTmp : rollDocument ? docTmp : document?.digest === ledger.contentDigest ? document : null;
  if (!source) {
    return { ok: false, error: { code: 'unreadable_base', message: `no file holds the ledger's revision ${ledger.revision} (digest ${ledger.contentDigest.slice(0, 12)})`, file: paths.base } };
  }
  const baseBook = parseDocument(source.text, paths.base, ledger.revision, 'unreadable_base');
  if (!baseBook.ok) return baseBook;
  const bytes = (await fs.readFile(paths.journal)) ?? new Uint8Array(0);
  const journal = scanJournal(bytes);
  if (journal.corruption) {
    const c = journal.corruption;
    return { ok: false, error: { code: 'corrupt_journal', message: `line ${c.lineNo}: ${c.message}`, file: paths.journal, position: { offset: c.offset, line: c.lineNo } } };
  }
  const replayed = replayJournal(baseBook.value, ledger, journal.entries, paths.journal);
  if (!replayed.ok) return replayed;
  const rewriteBase = source !== base && !rollBase;
  const value: DiskRead = {
    kind: 'tracked', ledger, document: rollDocument ? null : document, rollForward: { document: rollDocument, base: rollBase },
    rewriteBase, baseBook: baseBook.value, journal, ...replayed.value,
  };
  return { ok: true, value };
}
