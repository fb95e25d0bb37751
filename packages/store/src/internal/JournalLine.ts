import { z } from 'zod';
import type { AppliedOp } from '@cohort/skillbook';
import { sha256Hex } from './digest.ts';

const InsightSourceSchema = z.object({
  trace_uid: z.string(),
  source_system: z.string(),
  trace_id: z.string(),
  display_name: z.string().exactOptional(),
  relation: z.string().exactOptional(),
  sample_question: z.string().exactOptional(),
  epoch: z.number().int().exactOptional(),
  operation_type: z.string().exactOptional(),
  error_identification: z.string().exactOptional(),
  learning_text: z.string().exactOptional(),
});

/** An applied op as a journal line stores it (ACE operation JSON plus `at`). */
export const AppliedOpSchema = z.object({
  type: z.enum(['ADD', 'UPDATE', 'TAG', 'REMOVE']),
  section: z.string(),
  skill_id: z.string(),
  issue: z.string().exactOptional(),
  keywords: z.array(z.string()).exactOptional(),
  insight: z.string().exactOptional(),
  metadata: z.record(z.string(), z.number()).exactOptional(),
  insight_source: z.array(InsightSourceSchema).exactOptional(),
  reason: z.string().exactOptional(),
  at: z.string(),
});

/** One merged commit: its revision, the chain digest of the state it was applied to, who and what. */
export const CommitLineSchema = z.object({
  v: z.literal(1),
  t: z.literal('commit'),
  rev: z.number().int().nonnegative(),
  prev: z.string(),
  writer: z.string(),
  session: z.string(),
  path: z.array(z.string()),
  ops: z.array(AppliedOpSchema),
  at: z.number(),
});
/** See {@link CommitLineSchema}. */
export type CommitLine = Omit<z.infer<typeof CommitLineSchema>, 'ops'> & { readonly ops: readonly AppliedOp[] };

/** An audit mark: the document was re-based at `rev` (adopted, rebased, forked, force-saved) and its digest became `digest`. */
export const MarkLineSchema = z.object({
  v: z.literal(1),
  t: z.literal('mark'),
  rev: z.number().int().nonnegative(),
  writer: z.string(),
  reason: z.enum(['adopted', 'rebased', 'forked', 'force_saved']),
  digest: z.string(),
  notice: z.string(),
  at: z.number(),
});
/** See {@link MarkLineSchema}. */
export type MarkLine = z.infer<typeof MarkLineSchema>;

/** A journal line's content (without its checksum). */
export type JournalLine = CommitLine | MarkLine;

/** Any journal line. */
export const LineSchema = z.discriminatedUnion('t', [CommitLineSchema, MarkLineSchema]);

const SUM = ',"sum":"';
const SUM_LENGTH = 16;

/** The line's checksum: the first 16 hex digits of the sha256 of its body (the JSON without `sum`). */
function checksum(body: string): string {
  return sha256Hex(body).slice(0, SUM_LENGTH);
}

/** A line's JSON body, as hashed into the chain. */
export function lineBody(line: JournalLine): string {
  return JSON.stringify(line);
}

/** Encodes a line: its JSON with a trailing `sum` field, and a newline. */
export function encodeLine(line: JournalLine): string {
  const body = lineBody(line);
  return `${body.slice(0, -1)}${SUM}${checksum(body)}"}\n`;
}

/** Why a line could not be read. */
export type LineFault = 'bad_checksum' | 'invalid_line';

/** Decodes one line (without its newline): the line and its body, or why it is bad. */
export function decodeLine(text: string): { ok: true; line: JournalLine; body: string } | { ok: false; fault: LineFault; message: string } {
  const at = text.lastIndexOf(SUM);
  const tail = at < 0 ? '' : text.slice(at + SUM.length);
  if (at < 0 || tail.length !== SUM_LENGTH + 2 || !tail.endsWith('"}')) {
    return { ok: false, fault: 'invalid_line', message: 'no checksum field at the end of the line' };
  }
  // one string, flattened once by the checksum and then parsed and hashed into the chain as it
  // is (the store keeps no line's text or parsed form past reading it: see `SinceEntry`)
  const body = `${text.slice(0, at)}}`;
  if (checksum(body) !== tail.slice(0, SUM_LENGTH)) return { ok: false, fault: 'bad_checksum', message: 'checksum mismatch' };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return { ok: false, fault: 'invalid_line', message: `not JSON: ${(error as Error).message}` };
  }
  if (isPlainCommitLine(json)) return { ok: true, line: json, body };
  const parsed = LineSchema.safeParse(json);
  if (!parsed.success) return { ok: false, fault: 'invalid_line', message: `not a journal line: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  return { ok: true, line: parsed.data, body };
}

/*
 * The schema's answer for a commit line of the plain shape this store writes, checked by
 * hand: a 100,000-line journal spends more in zod than in everything else it reads. The check
 * accepts only what `CommitLineSchema` accepts — exactly its keys, of exactly its types — and
 * the line is then what the schema would return (it only strips unknown keys, and there are
 * none). Anything else, marks included, goes through the schema, which also says what is wrong.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isTexts = (value: unknown): boolean => Array.isArray(value) && value.every(isText);
const OP_TYPES: ReadonlySet<unknown> = new Set(['ADD', 'UPDATE', 'TAG', 'REMOVE']);
const COMMIT_KEYS = 9;

function countKeys(value: Json): number {
  let n = 0;
  for (const key in value) if (Object.hasOwn(value, key)) n += 1;
  return n;
}

/** `metadata`: a plain record of finite numbers (zod's record drops a `__proto__` key: left to it). */
function isCounts(value: unknown): boolean {
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    const n = value[key];
    if (key === '__proto__' || typeof n !== 'number' || !Number.isFinite(n)) return false;
  }
  return true;
}

const SOURCE_TEXT_KEYS: ReadonlySet<string> = new Set([
  'trace_uid', 'source_system', 'trace_id', 'display_name', 'relation', 'sample_question', 'operation_type', 'error_identification', 'learning_text',
]);

function isPlainSource(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) {
    const item = value[key];
    const ok = key === 'epoch' ? typeof item === 'number' && Number.isSafeInteger(item) : SOURCE_TEXT_KEYS.has(key) && isText(item);
    if (!ok) return false;
  }
  return isText(value['trace_uid']) && isText(value['source_system']) && isText(value['trace_id']);
}

function isPlainOp(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) {
    const item = value[key];
    let ok: boolean;
    switch (key) {
      case 'type': ok = OP_TYPES.has(item); break;
      case 'section': case 'skill_id': case 'issue': case 'insight': case 'reason': case 'at': ok = isText(item); break;
      case 'keywords': ok = isTexts(item); break;
      case 'metadata': ok = isCounts(item); break;
      case 'insight_source': ok = Array.isArray(item) && item.every(isPlainSource); break;
      default: ok = false;
    }
    if (!ok) return false;
  }
  return OP_TYPES.has(value['type']) && isText(value['section']) && isText(value['skill_id']) && isText(value['at']);
}

function isPlainCommitLine(json: unknown): json is CommitLine {
  if (!isRecord(json) || countKeys(json) !== COMMIT_KEYS) return false;
  const rev = json['rev'];
  const at = json['at'];
  return json['v'] === 1 && json['t'] === 'commit' && typeof rev === 'number' && Number.isSafeInteger(rev) && rev >= 0
    && isText(json['prev']) && isText(json['writer']) && isText(json['session']) && isTexts(json['path'])
    && Array.isArray(json['ops']) && json['ops'].every(isPlainOp) && typeof at === 'number' && Number.isFinite(at);
}
