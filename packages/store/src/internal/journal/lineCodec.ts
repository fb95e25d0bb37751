/**
 * A journal line as text: its JSON body with a trailing checksum field (`"sum"`, the first 16
 * hex digits of the body's sha256), and a newline. Writing puts the checksum last; reading
 * finds that tail once ({@link checksummed}) and every reader — the one that only checks a
 * line, the one that decodes it — starts from there. What the records are is `JournalLine.ts`.
 */
import { sha256Hex } from '../disk/digest.ts';
import { LineSchema } from './JournalLine.ts';
import type { JournalLine } from './JournalLine.ts';
import { isPlainCommitLine } from './plainCommitLine.ts';

const SUM = ',"sum":"';
const SUM_LENGTH = 16;
const GROUP_PREFIX = '{"v":2,"t":"group",';
const FIRST_FORMAT_PREFIX = '{"v":1,';

/** Why a line could not be read. */
export type LineFault = 'bad_checksum' | 'invalid_line';

/** A line that could not be read, and why. */
export interface LineError {
  readonly ok: false;
  readonly fault: LineFault;
  readonly message: string;
}

/** The line's checksum: the first 16 hex digits of the sha256 of its body (the JSON without `sum`). */
function checksum(body: string): string {
  return sha256Hex(body).slice(0, SUM_LENGTH);
}

/** A line's JSON body, as hashed into the chain. */
export function lineBody(line: JournalLine): string {
  return JSON.stringify(line);
}

/** Encodes a line from its body: the JSON with a trailing `sum` field, and a newline. */
export function encodeBody(body: string): string {
  return `${body.slice(0, -1)}${SUM}${checksum(body)}"}\n`;
}

/** Encodes a line: its JSON with a trailing `sum` field, and a newline. */
export function encodeLine(line: JournalLine): string {
  return encodeBody(lineBody(line));
}

/** Whether a line's text is a group header (by its first bytes, which `encodeLine` writes in this order). */
export function isGroupHeader(text: string): boolean {
  return text.startsWith(GROUP_PREFIX);
}

/**
 * The checksum of a line's text (without its newline) is right, or why not; `body` is what the
 * checksum covers — the text without the `sum` field, as one string that is then parsed and
 * hashed into the chain as it is (the store keeps no line's text or parsed form past reading
 * it: see `SinceEntry`). The one place the checksum tail is read.
 */
export function checksummed(text: string): { readonly ok: true; readonly body: string } | LineError {
  const at = text.lastIndexOf(SUM);
  const tail = at < 0 ? '' : text.slice(at + SUM.length);
  if (at < 0 || tail.length !== SUM_LENGTH + 2 || !tail.endsWith('"}')) {
    return { ok: false, fault: 'invalid_line', message: 'no checksum field at the end of the line' };
  }
  const body = `${text.slice(0, at)}}`;
  return checksum(body) === tail.slice(0, SUM_LENGTH)
    ? { ok: true, body }
    : { ok: false, fault: 'bad_checksum', message: 'checksum mismatch' };
}

/**
 * Checks one line's checksum without parsing it (a record the reader does not need: history
 * before the document's revision, when a store opens). A group header is not checked this way:
 * its framing is needed. Returns the line's format, or why it is bad.
 */
export function checkLine(text: string): { readonly ok: true; readonly header: boolean; readonly firstFormat: boolean } | LineError {
  if (isGroupHeader(text)) return { ok: true, header: true, firstFormat: false };
  const sum = checksummed(text);
  if (!sum.ok) return sum;
  return { ok: true, header: false, firstFormat: text.startsWith(FIRST_FORMAT_PREFIX) };
}

/** Decodes one line (without its newline): the line and its body, or why it is bad. */
export function decodeLine(text: string): { readonly ok: true; readonly line: JournalLine; readonly body: string } | LineError {
  const sum = checksummed(text);
  return sum.ok ? parseBody(sum.body) : sum;
}

/** Parses a line's body whose checksum was checked (see {@link checksummed}): the line, or why it is not one. */
export function parseBody(body: string): { readonly ok: true; readonly line: JournalLine; readonly body: string } | LineError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return { ok: false, fault: 'invalid_line', message: `not JSON: ${(error as Error).message}` };
  }
  if (isPlainCommitLine(json)) return { ok: true, line: json, body };
  const parsed = LineSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, fault: 'invalid_line', message: `not a journal line: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  return { ok: true, line: parsed.data, body };
}
