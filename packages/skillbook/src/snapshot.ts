/**
 * A book's snapshot: a compact JSON encoding of exactly what reading the book's ACE document
 * gives, for a store to keep beside the document it wrote. Reading a 100,000-skill document
 * takes seconds — the Python-exact JSON reader (key order, `1.0` vs `1`, big integers, `NaN`)
 * and ACE's normalisation of every skill —, reading its snapshot a fraction of that: native
 * `JSON.parse`, and skills built as they are stored.
 *
 * The snapshot is trusted for what only its writer knows: every text in it is normalised
 * already, as in any book. Its shape is still checked (a refused snapshot is an error value,
 * never a broken book), but not its normalisation — so read only snapshots a book wrote, and
 * tie them to their document (a store keeps its digest beside it). Similarity decisions are
 * Python JSON values and stay in the document's own text, read by the Python-exact reader.
 *
 * `readSnapshot(writeSnapshot(state), r)` builds the state `readAceDocument(writeAceDocument(state), r)`
 * builds — the same skills, sections, `next_id` and similarity decisions, every revision at `r`,
 * no tombstones — through the same last step ({@link assembleState}).
 */
import { writeSimilarity } from './aceJson.ts';
import { assembleState } from './internal/assembleState.ts';
import type { BookState } from './internal/BookState.ts';
import { listForEach, listToArray } from './internal/ChunkedList.ts';
import { makeSkill } from './internal/makeSkill.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import type { ReadResult } from './readAceDocument.ts';
import { readSimilarityText } from './readAceDocument.ts';
import { errorInfo } from './SkillbookError.ts';
import type { InsightSource, Skill, SkillId } from './types.ts';

/** The snapshot format this module writes and reads. */
export const SNAPSHOT_FORMAT = 'cohort-skillbook-snapshot/1';

/** Values many skills share (timestamps, sections, keyword lists), stored once and referred to by index. */
class Table<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();

  ref(key: string, value: T): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(key, i);
    }
    return i;
  }
}

/**
 * The snapshot text of a state. Skills are stored by column, not as 100,000 small objects or
 * rows: `JSON.parse` then makes a dozen large arrays that the garbage collector never moves,
 * and a value many skills share (a timestamp, a section, a keyword list) is one string or list
 * in a table, shared again by the skills read back. O(n).
 */
export function writeSnapshot(state: BookState): string {
  const strings = new Table<string>();
  const keywordLists = new Table<readonly string[]>();
  const position = new Map<string, number>();
  const ids: string[] = [];
  const section: number[] = [];
  const keywords: number[] = [];
  const issue: string[] = [];
  const insight: (string | null)[] = [];
  const active: boolean[] = [];
  const counts: number[] = [];
  const created: number[] = [];
  const updated: number[] = [];
  const occurrences: [number, readonly InsightSource[]][] = [];
  listForEach(state.order, (id) => {
    const skill = shardedGet(state.skills, id)?.skill;
    // a skill is filed under its own id (reading a document refuses anything else)
    if (!skill || skill.id !== id) return;
    position.set(id, ids.length);
    if (skill.occurrences.length > 0) occurrences.push([ids.length, skill.occurrences]);
    ids.push(id);
    section.push(strings.ref(skill.section, skill.section));
    keywords.push(keywordLists.ref(JSON.stringify(skill.keywords), skill.keywords));
    issue.push(skill.issue);
    insight.push(skill.insight ?? null);
    active.push(skill.active);
    counts.push(skill.used_count, skill.helpful_count, skill.harmful_count, skill.neutral_count);
    created.push(strings.ref(skill.created_at, skill.created_at));
    updated.push(strings.ref(skill.updated_at, skill.updated_at));
  });
  // a listed id is the position of its skill (the same string read back), or the id itself when no skill has it
  const sections = [...state.sections].map(([name, list]) => [name, listToArray(list).map((id) => position.get(id) ?? id)]);
  return JSON.stringify({
    format: SNAPSHOT_FORMAT,
    nextId: state.nextId,
    sections,
    similarity: writeSimilarity(state),
    strings: strings.values,
    keywordLists: keywordLists.values,
    skills: { ids, section, keywords, issue, insight, active, counts, created, updated, occurrences },
  });
}

/** A snapshot that does not have the shape {@link writeSnapshot} writes. */
class Malformed {
  constructor(readonly message: string) {}
}

function malformed(message: string): never {
  throw new Malformed(message);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isText = (value: unknown): value is string => typeof value === 'string';

function strings(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every(isText)) malformed(`${what}: expected a list of strings`);
  return value as string[];
}

/** A column of `n` values that all pass `check`. */
function column<T>(value: unknown, n: number, what: string, check: (item: unknown) => item is T): readonly T[] {
  if (!Array.isArray(value) || value.length !== n || !value.every(check)) malformed(`skills.${what}: expected ${n} values`);
  return value as T[];
}

/** An index into a table of `size` entries. */
const indexInto =
  (size: number) =>
  (item: unknown): item is number =>
    isCount(item) && item >= 0 && item < size;

/** Whether a stored value is an insight source: text fields (an integer `epoch`), the three identity fields present. */
function isStoredSource(value: unknown): value is InsightSource {
  if (!isRecord(value)) return false;
  for (const key in value) {
    const item = value[key];
    if (typeof item !== 'string' && !(key === 'epoch' && isCount(item))) return false;
  }
  return isText(value['trace_uid']) && isText(value['source_system']) && isText(value['trace_id']);
}

/** An insight source as stored: the canonical object (ACE key order), frozen. */
function source(value: unknown, what: string): InsightSource {
  if (!isStoredSource(value)) malformed(`${what}: expected an insight source (trace_uid, source_system and trace_id, text fields)`);
  return Object.freeze(value);
}

const NO_SOURCES: readonly InsightSource[] = Object.freeze([]);

/** Each skill's insight sources (most have none), by position. */
function readOccurrences(value: unknown, n: number): Map<number, readonly InsightSource[]> {
  if (!Array.isArray(value)) malformed('skills.occurrences: expected a list');
  const out = new Map<number, readonly InsightSource[]>();
  for (const pair of value as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || !indexInto(n)(pair[0]) || !Array.isArray(pair[1]))
      malformed('skills.occurrences: expected [skill, sources] pairs');
    const at = pair[0];
    out.set(at, Object.freeze((pair[1] as unknown[]).map((s, i) => source(s, `skills.occurrences[${at}][${i}]`))));
  }
  return out;
}

/** The skills, in document order: the same objects (keys, order, frozen) reading them from a document gives. */
function readSkills(
  value: unknown,
  table: readonly string[],
  lists: readonly (readonly string[])[],
): { readonly ids: readonly string[]; readonly skills: Map<string, Skill> } {
  if (!isRecord(value)) malformed('skills: expected the skill columns');
  const ids = strings(value['ids'], 'skills.ids');
  const n = ids.length;
  const inStrings = indexInto(table.length);
  const section = column(value['section'], n, 'section', inStrings);
  const keywords = column(value['keywords'], n, 'keywords', indexInto(lists.length));
  const issue = column(value['issue'], n, 'issue', isText);
  const insight = column(value['insight'], n, 'insight', (item): item is string | null => item === null || isText(item));
  const active = column(value['active'], n, 'active', (item): item is boolean => typeof item === 'boolean');
  const counts = column(value['counts'], 4 * n, 'counts', isCount);
  const created = column(value['created'], n, 'created', inStrings);
  const updated = column(value['updated'], n, 'updated', inStrings);
  const occurrences = readOccurrences(value['occurrences'], n);
  const out = new Map<string, Skill>();
  for (let i = 0; i < n; i++) {
    const id = ids[i] as SkillId;
    const text = insight[i] ?? null;
    const c = 4 * i;
    out.set(
      id,
      Object.freeze(
        makeSkill({
          id,
          section: table[section[i] as number] as string,
          keywords: lists[keywords[i] as number] as readonly string[],
          issue: issue[i] as string,
          insight: text,
          occurrences: occurrences.get(i) ?? NO_SOURCES,
          active: active[i] as boolean,
          used_count: counts[c] as number,
          helpful_count: counts[c + 1] as number,
          harmful_count: counts[c + 2] as number,
          neutral_count: counts[c + 3] as number,
          created: table[created[i] as number] as string,
          at: table[updated[i] as number] as string,
        }),
      ),
    );
  }
  return { ids, skills: out };
}

/**
 * Reads a snapshot into a frozen state at `revision`. Never throws: anything but the shape
 * {@link writeSnapshot} writes is refused (`invalid_json` / `invalid_document`).
 */
export function readSnapshot(text: string, revision: number): ReadResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: errorInfo('invalid_json', `the snapshot is not valid JSON: ${(error as Error).message}`) };
  }
  try {
    if (!isRecord(json) || json['format'] !== SNAPSHOT_FORMAT) malformed(`not a ${SNAPSHOT_FORMAT} snapshot`);
    const nextId = json['nextId'];
    if (!isCount(nextId)) malformed('nextId: expected an integer');
    const table = strings(json['strings'], 'strings');
    const rawLists = json['keywordLists'];
    if (!Array.isArray(rawLists)) malformed('keywordLists: expected a list');
    const lists = rawLists.map((list: unknown, i) => Object.freeze(strings(list, `keywordLists[${i}]`)));
    const { ids, skills } = readSkills(json['skills'], table, lists);
    const rawSections = json['sections'];
    if (!Array.isArray(rawSections)) malformed('sections: expected a list');
    const sections = new Map<string, readonly string[]>();
    for (const pair of rawSections as unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2 || !isText(pair[0]) || !Array.isArray(pair[1]))
        malformed('sections: expected [name, ids] pairs');
      const name = pair[0];
      sections.set(
        name,
        (pair[1] as unknown[]).map((ref) =>
          isText(ref)
            ? ref
            : typeof ref === 'number'
              ? (ids[ref] ?? malformed(`sections.${name}: no skill ${ref}`))
              : malformed(`sections.${name}: expected ids`),
        ),
      );
    }
    if (!isText(json['similarity'])) malformed("similarity: expected the decisions' JSON text");
    const similarity = readSimilarityText(json['similarity']);
    if (!similarity.ok) return similarity;
    return { ok: true, state: assembleState({ skills, sections, nextId, similarity: similarity.value }, revision) };
  } catch (e) {
    if (e instanceof Malformed) return { ok: false, error: errorInfo('invalid_document', `not a Skillbook snapshot: ${e.message}`) };
    throw e;
  }
}
