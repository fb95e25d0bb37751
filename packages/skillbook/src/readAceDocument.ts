/**
 * Reads an ACE schema-v2 document the way ACE's `Skillbook.loads` does (normalising text,
 * keywords and legacy sections, de-duplicating sources, keeping `sections` as written), and
 * refuses what is not a Skillbook document with the JSON path of the offending value.
 */
import { z } from 'zod';
import { formatAceTimestamp } from './formatAceTimestamp.ts';
import { appendUniqueSources, insightSourceFromDict } from './insightSource.ts';
import { assembleState } from './internal/assembleState.ts';
import { makeSkill } from './internal/makeSkill.ts';
import type { BookState, SimilarityDecision } from './internal/BookState.ts';
import { parsePyJson } from './internal/pyJson.ts';
import { compareCodePoints } from './internal/pyJsonText.ts';
import { PyError, isDict, pyInt, pyStr, pyTruthy, quoteRepr } from './internal/python.ts';
import type { PyDict, PyValue } from './internal/python.ts';
import { coerceSectionAndKeywords, normalizeKeywords, normalizeOptionalText, normalizeRequiredText } from './normalize.ts';
import { errorInfo } from './SkillbookError.ts';
import type { Clock, Skill, SkillbookErrorInfo } from './types.ts';

const Count = z.int({ error: 'expected an integer (a count)' }).optional();
const Text = (what: string) => z.string({ error: `expected ${what} (a string)` });

/** The fields of a stored skill whose type Cohort checks (ACE coerces the others). */
export const StoredSkillSchema = z
  .object({
    id: Text('the skill id'),
    used_count: Count,
    helpful_count: Count,
    harmful_count: Count,
    neutral_count: Count,
    created_at: Text('a timestamp').optional(),
    updated_at: Text('a timestamp').optional(),
  })
  .loose();

const DECISION_KEYS = ['decision', 'reasoning', 'decided_at', 'similarity_at_decision'] as const;

/** What reading a document needs. */
export interface ReadOptions {
  readonly revision: number;
  /** Fills a missing `created_at` / `updated_at`, as ACE does with the current time. */
  readonly clock: Clock;
}

/** A read book state, or why the document is refused. */
export type ReadResult = { readonly ok: true; readonly state: BookState } | { readonly ok: false; readonly error: SkillbookErrorInfo };

class Refusal {
  constructor(readonly error: SkillbookErrorInfo) {}
}

function refuse(path: string, message: string, code: 'invalid_document' | 'unsupported_schema_version' = 'invalid_document'): never {
  throw new Refusal(errorInfo(code, path === '' ? message : `${path}: ${message}`, { path }));
}

/**
 * The `similarity_decisions` object of a document, from its JSON text alone (a store's
 * snapshot keeps it as the document writes it: its values are Python JSON values that only
 * the Python-exact reader reads faithfully).
 */
export function readSimilarityText(
  text: string,
): { readonly ok: true; readonly value: Map<string, SimilarityDecision> } | { readonly ok: false; readonly error: SkillbookErrorInfo } {
  const parsed = parsePyJson(text);
  if (!parsed.ok) return { ok: false, error: errorInfo('invalid_json', `the similarity decisions are not valid JSON: ${parsed.message}`) };
  if (!(parsed.value instanceof Map))
    return {
      ok: false,
      error: errorInfo('invalid_document', 'similarity_decisions: expected an object', { path: 'similarity_decisions' }),
    };
  try {
    return { ok: true, value: readSimilarity(parsed.value) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, error: e.error };
    throw e;
  }
}

/** Reads a document's text into a frozen state. Never throws. */
export function readAceDocument(text: unknown, options: ReadOptions): ReadResult {
  if (typeof text !== 'string') return { ok: false, error: errorInfo('invalid_json', 'a Skillbook document is JSON text (a string)') };
  const parsed = parsePyJson(text);
  if (!parsed.ok) return { ok: false, error: errorInfo('invalid_json', `the document is not valid JSON: ${parsed.message}`) };
  try {
    return { ok: true, state: readDocument(parsed.value, options) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, error: e.error };
    throw e;
  }
}

function readDocument(doc: PyValue, options: ReadOptions): BookState {
  if (!(doc instanceof Map)) refuse('', 'Skillbook serialization must be a JSON object.');
  checkVersion(doc);
  const skills = readSkills(field(doc, 'skills'), options);
  const sections = readSections(field(doc, 'sections'));
  const nextId = readNextId(doc.get('next_id'));
  const similarity = readSimilarity(field(doc, 'similarity_decisions'));
  return assembleState({ skills, sections, nextId, similarity }, options.revision);
}

/** A container field: absent → empty; present but not an object → refused. */
function field(doc: PyDict, key: string): PyDict {
  const value = doc.get(key);
  if (value === undefined) return new Map();
  if (!(value instanceof Map)) refuse(key, 'expected an object');
  return value;
}

function checkVersion(doc: PyDict): void {
  const raw = doc.get('schema_version');
  const version = raw === undefined ? '' : guard('schema_version', () => pyStr(raw));
  if (version === '2') return;
  const found = raw === undefined ? 'the document has no schema_version' : `schema version ${quoteRepr(version)} is not supported`;
  refuse(
    'schema_version',
    `${found}; Cohort reads the Skillbook format v2 (ACE: "Skillbook format v2 required — regenerate")`,
    'unsupported_schema_version',
  );
}

/** Runs an ACE coercion; a Python error becomes a refusal at `path`. */
function guard<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof PyError) refuse(path, e.message);
    throw e;
  }
}

function readSkills(skills: PyDict, options: ReadOptions): Map<string, Skill> {
  const out = new Map<string, Skill>();
  let now: string | undefined;
  const clockNow = (): string => (now ??= formatAceTimestamp(options.clock.now()));
  for (const [key, value] of skills) {
    const path = `skills.${key}`;
    if (!(value instanceof Map)) refuse(path, 'expected a skill object');
    out.set(key, readSkill(key, value, path, clockNow));
  }
  return out;
}

/** What {@link StoredSkillSchema} checks, read straight off a skill that passes it. */
interface StoredFields {
  readonly id: string;
  readonly used_count?: number | undefined;
  readonly helpful_count?: number | undefined;
  readonly harmful_count?: number | undefined;
  readonly neutral_count?: number | undefined;
  readonly created_at?: string | undefined;
  readonly updated_at?: string | undefined;
}

const COUNT_KEYS = ['used_count', 'helpful_count', 'harmful_count', 'neutral_count'] as const;

/**
 * The checked fields of a stored skill. A skill whose fields have the plain types the schema
 * asks for (every skill Cohort or ACE wrote) passes without building an object for the schema
 * — a document holds 100,000 of them; anything else goes through the schema, which names what
 * is wrong.
 */
function storedFields(raw: PyDict, path: string): StoredFields {
  const id = raw.get('id');
  const created = raw.get('created_at');
  const updated = raw.get('updated_at');
  const plain =
    typeof id === 'string' &&
    (created === undefined || typeof created === 'string') &&
    (updated === undefined || typeof updated === 'string') &&
    COUNT_KEYS.every((k) => {
      const v = raw.get(k);
      return v === undefined || (typeof v === 'number' && Number.isSafeInteger(v));
    });
  if (plain) {
    const count = (k: (typeof COUNT_KEYS)[number]) => raw.get(k) as number | undefined;
    return {
      id,
      created_at: created,
      updated_at: updated,
      used_count: count('used_count'),
      helpful_count: count('helpful_count'),
      harmful_count: count('harmful_count'),
      neutral_count: count('neutral_count'),
    };
  }
  const checked = StoredSkillSchema.safeParse(Object.fromEntries(raw));
  if (!checked.success) {
    const issue = checked.error.issues[0];
    refuse([path, ...(issue?.path ?? []).map(String)].join('.'), issue?.message ?? 'invalid skill');
  }
  return checked.data;
}

function readSkill(key: string, raw: PyDict, path: string, now: () => string): Skill {
  const stored = storedFields(raw, path);
  if (stored.id !== key) refuse(`${path}.id`, `the id ${JSON.stringify(stored.id)} does not match its key`);
  const active = raw.has('active') ? pyTruthy(raw.get('active')) : true;
  const rawKeywords = raw.get('keywords');
  const sectionValue = raw.has('section') ? raw.get('section') : 'context';
  const [section, keywords] = guard(`${path}.section`, () => {
    let kw = Array.isArray(rawKeywords) ? normalizeKeywords(rawKeywords) : [];
    if (kw.length === 0) kw = normalizeKeywords([sectionValue]);
    return coerceSectionAndKeywords(pyStr(sectionValue), kw);
  });
  const issue = guard(`${path}.issue`, () => normalizeRequiredText(raw.get('issue'), 'issue'));
  const insight = guard(`${path}.insight`, () => normalizeOptionalText(raw.get('insight')));
  const occurrences = guard(`${path}.occurrences`, () => readSources(raw.get('occurrences')));
  const created = stored.created_at ?? now();
  const at = stored.updated_at ?? now();
  const { used_count, helpful_count, harmful_count, neutral_count } = stored;
  return makeSkill({
    id: key,
    section,
    keywords,
    issue,
    insight,
    occurrences,
    active,
    used_count,
    helpful_count,
    harmful_count,
    neutral_count,
    created,
    at,
  });
}

/** ACE `_deserialize_sources`: the objects of a list, canonicalised and de-duplicated. */
function readSources(raw: PyValue | undefined): Skill['occurrences'] {
  if (!Array.isArray(raw)) return [];
  return appendUniqueSources(
    [],
    raw.filter((item) => isDict(item)).map((item) => insightSourceFromDict(item as PyDict)),
  );
}

function readSections(raw: PyDict): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, ids] of raw) {
    if (!Array.isArray(ids)) refuse(`sections.${name}`, 'expected a list of skill ids');
    const list = ids as readonly PyValue[];
    list.forEach((id, i) => {
      if (typeof id !== 'string') refuse(`sections.${name}[${i}]`, 'expected a skill id (a string)');
    });
    out.set(name, list as string[]);
  }
  return out;
}

function readNextId(raw: PyValue | undefined): number {
  if (raw === undefined || raw === null) return 0;
  const n = Number(guard('next_id', () => pyInt(raw)));
  if (!Number.isSafeInteger(n)) refuse('next_id', 'expected an integer below 2^53');
  return n;
}

function readSimilarity(raw: PyDict): Map<string, SimilarityDecision> {
  const out = new Map<string, SimilarityDecision>();
  for (const [key, value] of raw) {
    const path = `similarity_decisions.${key}`;
    if (!(value instanceof Map)) refuse(path, 'expected a similarity decision object');
    const keys = [...value.keys()];
    if (keys.length !== DECISION_KEYS.length || !DECISION_KEYS.every((k) => value.has(k))) {
      refuse(path, `expected exactly the keys ${DECISION_KEYS.join(', ')}`);
    }
    // ACE keys decisions by the frozenset of the two ids and writes them sorted and joined.
    const pair = [...new Set(key.split(','))].sort(compareCodePoints).join(',');
    const [decision, reasoning, decidedAt, similarity] = DECISION_KEYS.map((k) => value.get(k) ?? null);
    out.set(pair, [decision ?? null, reasoning ?? null, decidedAt ?? null, similarity ?? null]);
  }
  return out;
}
