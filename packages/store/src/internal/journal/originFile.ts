/**
 * What a file store was created with (`skillbook.json.origin`): the book it started from — the
 * initial book it was given, or an ACE document it was first opened on — in the skillbook's
 * compact encoding, with a header line naming its revision, who created the store, when, and
 * the sha256 of the rest. It is the first change of the store's history (reason `created`), kept
 * beside the journal rather than in it, so that opening a store never reads it: a store created
 * from a large book would otherwise carry all of it in its journal's first record. Written once,
 * before the store's first ledger; a store created empty has none.
 */
import { Skillbook } from '@cohort/skillbook';
import type { StoreFs } from '../../StoreFs.ts';
import { writeFresh } from '../disk/atomicWrite.ts';
import { fromUtf8, sha256Hex, utf8 } from '../disk/digest.ts';
import type { StorePaths } from '../disk/StorePaths.ts';
import { tempPath } from '../disk/StorePaths.ts';

const ORIGIN_FORMAT = 'cohort-origin/1';

interface OriginHeader {
  readonly format: typeof ORIGIN_FORMAT;
  readonly revision: number;
  readonly writer: string;
  readonly at: number;
  readonly bodyDigest: string;
}

/** The book a store was created with, and by whom and when. */
export interface Origin {
  readonly book: Skillbook;
  readonly writer: string;
  readonly at: number;
}

/** The origin, `null` when the store was created empty, or what is wrong with the file. */
export type OriginRead = { readonly ok: true; readonly origin: Origin | null } | { readonly ok: false; readonly message: string };

/** Writes the origin of a store being created (fsynced; the creation's checkpoint syncs the directory). */
export async function writeOrigin(fs: StoreFs, paths: StorePaths, origin: Origin): Promise<void> {
  const body = utf8(origin.book.toSnapshot());
  const header: OriginHeader = {
    format: ORIGIN_FORMAT,
    revision: origin.book.revision,
    writer: origin.writer,
    at: origin.at,
    bodyDigest: sha256Hex(body),
  };
  const head = utf8(`${JSON.stringify(header)}\n`);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head, 0);
  bytes.set(body, head.length);
  await writeFresh(fs, tempPath(paths.origin), bytes);
  await fs.rename(tempPath(paths.origin), paths.origin);
}

function parseHeader(text: string | null): OriginHeader | null {
  if (text === null) return null;
  try {
    const h: unknown = JSON.parse(text);
    if (typeof h !== 'object' || h === null) return null;
    const { format, revision, writer, at, bodyDigest } = h as Partial<Record<keyof OriginHeader, unknown>>;
    if (
      format !== ORIGIN_FORMAT ||
      typeof revision !== 'number' ||
      typeof writer !== 'string' ||
      typeof at !== 'number' ||
      typeof bodyDigest !== 'string'
    )
      return null;
    return { format, revision, writer, at, bodyDigest };
  } catch {
    return null;
  }
}

/** Reads the origin of the store of `paths`. */
export async function readOrigin(fs: StoreFs, paths: StorePaths): Promise<OriginRead> {
  const bytes = await fs.readFile(paths.origin);
  if (!bytes) return { ok: true, origin: null };
  const nl = bytes.indexOf(0x0a);
  const header = nl < 0 ? null : parseHeader(fromUtf8(bytes.subarray(0, nl)));
  if (!header) return { ok: false, message: 'the origin file has no header line' };
  const body = bytes.subarray(nl + 1);
  if (sha256Hex(body) !== header.bodyDigest) return { ok: false, message: 'the origin file does not match its digest' };
  const read = Skillbook.fromSnapshot(fromUtf8(body) ?? '', { revision: header.revision });
  return read.ok
    ? { ok: true, origin: { book: read.book, writer: header.writer, at: header.at } }
    : { ok: false, message: read.error.message };
}
