import { createHash, hash } from 'node:crypto';
import type { StoreFs } from '../../StoreFs.ts';

/** sha256 of bytes or UTF-8 text, lower-case hex. (One-shot `hash`: two are taken per journal line.) */
export function sha256Hex(data: Uint8Array | string): string {
  return hash('sha256', data, 'hex');
}

/** A stable id for one occurrence of a notice, derived from what identifies it. */
export function occurrenceId(kind: string, ...parts: readonly (string | number)[]): string {
  return `${kind}:${sha256Hex(parts.join('\u0000')).slice(0, 20)}`;
}

/**
 * The next link of the journal's hash chain: the digest of the state after a line, from the
 * digest of the state before it and the line's body. The chain starts at the document's
 * content digest at each checkpoint, so a line names exactly the state it was applied to.
 */
export function chainDigest(previous: string, body: string): string {
  // hex of the first 16 bytes, made on its own: a slice of the full 64-digit hex would keep
  // that string alive behind it, and the store keeps one chain per commit past the document
  return hash('sha256', `${previous}\n${body}`, 'buffer').toString('hex', 0, 16);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** `bytes` as UTF-8 text, or `null` when they are not valid UTF-8. */
export function fromUtf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * sha256 of a file's bytes, read in chunks ({@link StoreFs.readChunks}), or `undefined` when
 * it does not exist. Opening a store checks that the document and its base hold the ledger's
 * digest: in chunks, never holding either file whole (bench row 5).
 */
export async function fileDigest(fs: StoreFs, path: string): Promise<string | undefined> {
  const digest = createHash('sha256');
  const found = await fs.readChunks(path, (chunk) => {
    digest.update(chunk);
  });
  return found ? digest.digest('hex') : undefined;
}
