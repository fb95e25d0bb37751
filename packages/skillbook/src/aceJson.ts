/**
 * Writes a book as the exact text of ACE's `Skillbook.dumps()`: `json.dumps(to_dict(),
 * ensure_ascii=False, indent=2)` — two-space indentation, non-ASCII raw, ACE's key order,
 * `"insight": null` for a missing insight, no trailing newline.
 */
import type { BookState, SimilarityDecision } from './internal/BookState.ts';
import { listForEach } from './internal/ChunkedList.ts';
import { jsonString, writeIndented } from './internal/pyJsonText.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import { INSIGHT_SOURCE_KEYS } from './schemas.ts';
import type { InsightSource, Skill } from './types.ts';

function writeStrings(items: readonly string[], indent: string): string {
  if (items.length === 0) return '[]';
  const inner = `${indent}  `;
  return `[\n${items.map((s) => inner + jsonString(s)).join(',\n')}\n${indent}]`;
}

function writeSource(source: InsightSource, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const key of INSIGHT_SOURCE_KEYS) {
    const value = source[key];
    if (value === undefined) continue;
    lines.push(`${inner}"${key}": ${typeof value === 'number' ? String(value) : jsonString(value)}`);
  }
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function writeSources(sources: readonly InsightSource[], indent: string): string {
  if (sources.length === 0) return '[]';
  const inner = `${indent}  `;
  return `[\n${sources.map((s) => inner + writeSource(s, inner)).join(',\n')}\n${indent}]`;
}

/** One skill as the value of its `skills` key (indented for that position). */
export function writeSkill(skill: Skill): string {
  const i = '      ';
  return [
    '{',
    `${i}"id": ${jsonString(skill.id)},`,
    `${i}"section": ${jsonString(skill.section)},`,
    `${i}"keywords": ${writeStrings(skill.keywords, i)},`,
    `${i}"issue": ${jsonString(skill.issue)},`,
    `${i}"insight": ${skill.insight === undefined ? 'null' : jsonString(skill.insight)},`,
    `${i}"occurrences": ${writeSources(skill.occurrences, i)},`,
    `${i}"active": ${skill.active ? 'true' : 'false'},`,
    `${i}"used_count": ${skill.used_count},`,
    `${i}"helpful_count": ${skill.helpful_count},`,
    `${i}"harmful_count": ${skill.harmful_count},`,
    `${i}"neutral_count": ${skill.neutral_count},`,
    `${i}"created_at": ${jsonString(skill.created_at)},`,
    `${i}"updated_at": ${jsonString(skill.updated_at)}`,
    '    }',
  ].join('\n');
}

/**
 * Each skill's line of the `skills` object, remembered for as long as the (frozen, never
 * changing) skill lives: a store rewrites its whole document every few hundred merges, and all
 * but the skills those merges touched are written exactly as the last time.
 */
const written = new WeakMap<Skill, string>();

function skillLine(id: string, skill: Skill): string {
  let text = written.get(skill);
  // a skill is filed under its own id (reading a document refuses anything else)
  if (text === undefined || id !== skill.id) {
    text = `    ${jsonString(id)}: ${writeSkill(skill)}`;
    if (id === skill.id) written.set(skill, text);
  }
  return text;
}

function writeSkills(state: BookState): string {
  if (state.order.length === 0) return '{}';
  const parts: string[] = [];
  listForEach(state.order, (id) => {
    const entry = shardedGet(state.skills, id);
    if (entry) parts.push(skillLine(id, entry.skill));
  });
  return `{\n${parts.join(',\n')}\n  }`;
}

function writeSections(state: BookState): string {
  if (state.sections.size === 0) return '{}';
  const parts: string[] = [];
  for (const [name, list] of state.sections) {
    const ids: string[] = [];
    listForEach(list, (id) => ids.push(id));
    parts.push(`    ${jsonString(name)}: ${writeStrings(ids, '    ')}`);
  }
  return `{\n${parts.join(',\n')}\n  }`;
}

function writeDecision(d: SimilarityDecision): string {
  const i = '      ';
  const [decision, reasoning, decidedAt, similarity] = d;
  return [
    '{',
    `${i}"decision": ${writeIndented(decision, i)},`,
    `${i}"reasoning": ${writeIndented(reasoning, i)},`,
    `${i}"decided_at": ${writeIndented(decidedAt, i)},`,
    `${i}"similarity_at_decision": ${writeIndented(similarity, i)}`,
    '    }',
  ].join('\n');
}

/** The `similarity_decisions` object as the document writes it (at its indentation there). */
export function writeSimilarity(state: BookState): string {
  if (state.similarity.size === 0) return '{}';
  const parts = [...state.similarity].map(([key, d]) => `    ${jsonString(key)}: ${writeDecision(d)}`);
  return `{\n${parts.join(',\n')}\n  }`;
}

/** The whole document, byte for byte as ACE's `dumps()` would write it. O(n). */
export function writeAceDocument(state: BookState): string {
  return [
    '{',
    '  "schema_version": "2",',
    `  "skills": ${writeSkills(state)},`,
    `  "sections": ${writeSections(state)},`,
    `  "next_id": ${state.nextId},`,
    `  "similarity_decisions": ${writeSimilarity(state)}`,
    '}',
  ].join('\n');
}
