import type { CommitLine, CommitLineV1 } from './JournalLine.ts';
import { decodeLine } from './lineCodec.ts';
import { die } from '../../errors.ts';
import { fromUtf8 } from '../disk/digest.ts';

/**
 * A commit past the ledger's revision, with the chain digest after it. The store keeps one for
 * every commit in the journal past the document (until a checkpoint folds them in): following
 * another writer's checkpoint needs the revision and the chain, and only reconciling with a
 * document another program wrote needs the commit lines themselves.
 */
export interface SinceEntry {
  readonly rev: number;
  readonly chain: string;
  /** The commit line (for entries read from the journal, decoded again each time it is asked for). */
  readonly line: CommitLine | CommitLineV1;
}

/** A commit this store wrote in this session: its line is kept as built. */
export function writtenEntry(line: CommitLine, chain: string): SinceEntry {
  return { rev: line.rev, chain, line };
}

/**
 * A commit read from the journal, keeping only where its line is in the journal's bytes as
 * read. Kept parsed, the lines an open reads would be much of the memory live after it, and
 * the garbage collector's work would grow with them (bench row 5); kept this way each is a few
 * numbers and its chain, and the bytes are one buffer
 * outside the JavaScript heap that the store already read (`StoreFs` reads return the
 * caller's own copy, never written again). The line decodes as it did when read, checksum
 * included: the bytes are the same.
 */
export class JournalSinceEntry implements SinceEntry {
  constructor(
    readonly rev: number,
    readonly chain: string,
    private readonly bytes: Uint8Array,
    /** The line's first byte within `bytes`. */
    private readonly start: number,
    /** The line's newline (not part of its text). */
    private readonly end: number,
  ) {}

  get line(): CommitLine | CommitLineV1 {
    const text = fromUtf8(this.bytes.subarray(this.start, this.end));
    const decoded = text === null ? null : decodeLine(text);
    // it decoded as a commit line when it was read, from these very bytes
    if (!decoded?.ok || decoded.line.t !== 'commit') die('STORE_LINE_CHANGED', this.start);
    return decoded.line;
  }
}
