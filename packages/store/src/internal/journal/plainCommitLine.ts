/*
 * The schema's answer for a commit line of the plain shape this store writes, checked by
 * hand: on a long journal zod's parse outweighs everything else reading does (bench row 5).
 * The check accepts only what `CommitLineSchema` accepts — exactly its keys, of exactly its
 * types — and the line is then what the schema would return (it only strips unknown keys,
 * and there are none). Anything else goes through the schema, which also says what is wrong.
 */
import { InsightSourceSchema } from './JournalLine.ts';
import type { CommitLine } from './JournalLine.ts';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isTexts = (value: unknown): boolean => Array.isArray(value) && value.every(isText);
const isFiniteNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
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
    if (key === '__proto__' || !isFiniteNumber(value[key])) return false;
  }
  return true;
}

const SOURCE_TEXT_KEYS: ReadonlySet<string> = new Set(Object.keys(InsightSourceSchema.shape).filter((key) => key !== 'epoch'));

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
      case 'type':
        ok = OP_TYPES.has(item);
        break;
      case 'section':
      case 'skill_id':
      case 'issue':
      case 'insight':
      case 'reason':
      case 'at':
        ok = isText(item);
        break;
      case 'keywords':
        ok = isTexts(item);
        break;
      case 'metadata':
        ok = isCounts(item);
        break;
      case 'insight_source':
        ok = Array.isArray(item) && item.every(isPlainSource);
        break;
      default:
        ok = false;
    }
    if (!ok) return false;
  }
  return OP_TYPES.has(value['type']) && isText(value['section']) && isText(value['skill_id']) && isText(value['at']);
}

function isPlainBlock(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) {
    const item = value[key];
    let ok: boolean;
    switch (key) {
      case 'session':
      case 'name':
        ok = isText(item);
        break;
      case 'path':
        ok = isTexts(item);
        break;
      case 'at':
        ok = isFiniteNumber(item);
        break;
      case 'ops':
        ok = Array.isArray(item) && item.every(isPlainOp);
        break;
      default:
        ok = false;
    }
    if (!ok) return false;
  }
  return Array.isArray(value['ops']);
}

/** Whether `json` is a commit line of the shape `CommitLineSchema` accepts, as it is. */
export function isPlainCommitLine(json: unknown): json is CommitLine {
  if (!isRecord(json) || countKeys(json) !== COMMIT_KEYS) return false;
  const rev = json['rev'];
  return (
    json['v'] === 2 &&
    json['t'] === 'commit' &&
    typeof rev === 'number' &&
    Number.isSafeInteger(rev) &&
    rev >= 0 &&
    isText(json['prev']) &&
    isText(json['writer']) &&
    isText(json['session']) &&
    isTexts(json['path']) &&
    isFiniteNumber(json['at']) &&
    Array.isArray(json['blocks']) &&
    json['blocks'].every(isPlainBlock)
  );
}
