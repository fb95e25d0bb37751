/**
 * The snapshot beside the document (`skillbook.json.snapshot`): the book of a checkpoint in
 * the skillbook's compact encoding (`book.toSnapshot()`), so that opening the store need not
 * read the document again with the Python-exact reader, otherwise the larger part of an open
 * (bench row 5).
 *
 * It is an accelerator, never a source of truth. Its first line names what it stands for:
 * the ledger revision and the sha256 of the document bytes it was written with, and the
 * sha256 of the rest of the file. It is used only when all three match (the ledger's revision
 * and content digest, and its own bytes); missing, torn, damaged, from another checkpoint, or
 * unreadable, it is ignored and the document is read as before. So it is written without an
 * fsync and outside the checkpoint's commit point: a crash can only leave one that is ignored.
 */
import { Skillbook } from '@cohort/skillbook';
import type { StoreFs } from '../../StoreFs.ts';
import { writeFresh } from '../disk/atomicWrite.ts';
import { fromUtf8, sha256Hex, utf8 } from '../disk/digest.ts';
import type { Ledger } from '../disk/Ledger.ts';
import type { StorePaths } from '../disk/StorePaths.ts';
import { tempPath } from '../disk/StorePaths.ts';

/** The snapshot file format this store writes. */
const SNAPSHOT_FILE_FORMAT = 'cohort-snapshot/1';

/** The first line of a snapshot file. */
interface SnapshotHeader {
  readonly format: typeof SNAPSHOT_FILE_FORMAT;
  /** The ledger revision of the checkpoint. */
  readonly revision: number;
  /** The sha256 of the document bytes the checkpoint wrote (the ledger's `contentDigest`). */
  readonly contentDigest: string;
  /** The sha256 of the bytes after the first line. */
  readonly bodyDigest: string;
}

/** Why a snapshot was not used (the document is read instead). */
export type SnapshotRefusal = 'missing' | 'damaged' | 'stale' | 'unreadable';

/** The outcome of {@link readSnapshotFile}. */
type SnapshotRead =
  | { readonly ok: true; readonly book: Skillbook }
  | { readonly ok: false; readonly reason: SnapshotRefusal; readonly message: string };

const NEWLINE = 0x0a;

/** The bytes of a snapshot file for `book`, the book of a checkpoint whose document bytes have sha256 `contentDigest`. */
function encodeSnapshotFile(book: Skillbook, contentDigest: string): Uint8Array {
  const body = utf8(book.toSnapshot());
  const header: SnapshotHeader = { format: SNAPSHOT_FILE_FORMAT, revision: book.revision, contentDigest, bodyDigest: sha256Hex(body) };
  const head = utf8(`${JSON.stringify(header)}\n`);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head, 0);
  bytes.set(body, head.length);
  return bytes;
}

/**
 * Writes the snapshot of a checkpoint, replacing the previous one (a temporary file renamed
 * into place, so a reader meets a whole file or the previous one; no fsync — see the module comment).
 */
export async function writeSnapshotFile(fs: StoreFs, paths: StorePaths, book: Skillbook, contentDigest: string): Promise<void> {
  const tmp = tempPath(paths.snapshot);
  await writeFresh(fs, tmp, encodeSnapshotFile(book, contentDigest), { sync: false });
  await fs.rename(tmp, paths.snapshot);
}

function parseHeader(bytes: Uint8Array, end: number): SnapshotHeader | null {
  const text = fromUtf8(bytes.subarray(0, end));
  if (text === null) return null;
  try {
    const header: unknown = JSON.parse(text);
    if (typeof header !== 'object' || header === null) return null;
    const h = header as Record<string, unknown>;
    const valid =
      h['format'] === SNAPSHOT_FILE_FORMAT &&
      typeof h['revision'] === 'number' &&
      typeof h['contentDigest'] === 'string' &&
      typeof h['bodyDigest'] === 'string';
    return valid ? (header as SnapshotHeader) : null;
  } catch {
    return null;
  }
}

/**
 * The book of the ledger's checkpoint from the snapshot file's bytes (`reading`: their reading,
 * started by the caller), if the snapshot stands for exactly that checkpoint and its bytes are
 * whole; otherwise why not.
 */
export async function readSnapshotFile(reading: Promise<Uint8Array | undefined>, ledger: Ledger): Promise<SnapshotRead> {
  const bytes = await reading;
  if (!bytes) return { ok: false, reason: 'missing', message: 'no snapshot' };
  const nl = bytes.indexOf(NEWLINE);
  const header = nl < 0 ? null : parseHeader(bytes, nl);
  if (!header) return { ok: false, reason: 'damaged', message: 'the snapshot has no header line' };
  if (header.revision !== ledger.revision || header.contentDigest !== ledger.contentDigest) {
    return {
      ok: false,
      reason: 'stale',
      message: `the snapshot is of revision ${header.revision}, the ledger names revision ${ledger.revision}`,
    };
  }
  const body = bytes.subarray(nl + 1);
  if (sha256Hex(body) !== header.bodyDigest) return { ok: false, reason: 'damaged', message: 'the snapshot does not match its digest' };
  const text = fromUtf8(body);
  if (text === null) return { ok: false, reason: 'damaged', message: 'the snapshot is not UTF-8' };
  const read = Skillbook.fromSnapshot(text, { revision: ledger.revision });
  return read.ok ? read : { ok: false, reason: 'unreadable', message: read.error.message };
}
