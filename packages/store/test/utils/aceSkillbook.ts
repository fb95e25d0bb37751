/**
 * A model of ACE's Python `Skillbook` (`ace/core/skillbook.py`), for tests that run another
 * program beside Cohort on the same document: `load_from_file` (`from_dict`'s normalisation,
 * sections kept as written, `next_id` as loaded), `add_skill` with ACE's own id allocation
 * (`_generate_id`: `next_id += 1`), `update_skill`, `tag_skill`, `mark_used`, the soft
 * `remove_skill`, and `save_to_file` — the whole document, in place (open, truncate, write),
 * byte for byte what `json.dumps(to_dict(), ensure_ascii=False, indent=2)` writes. It shares no
 * code with Cohort's skillbook: it is the other side Cohort is tested against.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { PyNumber, dumps, loads } from './pythonJson.ts';
import type { PyObject, PyValue } from './pythonJson.ts';

const VALID_SECTIONS = new Set(['context', 'harness']);

/** One skill, with the fields of ACE's `Skill` dataclass in its order (the embedding left out, as `to_dict` does). */
export interface AceSkill {
  id: string;
  section: string;
  keywords: string[];
  issue: string;
  insight: string | null;
  occurrences: PyValue[];
  active: boolean;
  used_count: number;
  helpful_count: number;
  harmful_count: number;
  neutral_count: number;
  created_at: string;
  updated_at: string;
}

/** The last time {@link wallClockMs} gave. */
let lastMs = 0;

/**
 * The wall clock, as `datetime.now()` reads it and as the store's clock (`Date.now()`) does, to
 * the microsecond and never going back: the store compares an ACE timestamp with the times it
 * wrote its versions at (2 ms of slack), and `performance.timeOrigin + performance.now()` can
 * be further than that from `Date.now()`.
 */
function wallClockMs(): number {
  lastMs = Math.max(lastMs + 0.001, Date.now() + (performance.now() % 1));
  return lastMs;
}

/** `datetime.now(timezone.utc).isoformat()`: microseconds, left out when they are zero. */
export function nowIso(ms: number = wallClockMs()): string {
  const micros = Math.floor(ms * 1000);
  const d = new Date(Math.floor(micros / 1000));
  const fraction = micros % 1_000_000;
  const base = d.toISOString().slice(0, 19);
  return `${base}${fraction === 0 ? '' : `.${String(fraction).padStart(6, '0')}`}+00:00`;
}

function optionalText(value: PyValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = (value instanceof PyNumber ? value.text : typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value)).trim();
  return text === '' ? null : text;
}

function requiredText(value: PyValue | undefined, field: string): string {
  const text = optionalText(value);
  if (text === null) throw new Error(`ValueError: ${field} is required and must be non-empty`);
  return text;
}

/** `_normalize_keywords`: stripped, lower-cased, white space runs as `_`, de-duplicated. */
function normalizeKeywords(values: readonly PyValue[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const text = optionalText(v);
    const keyword = text === null ? null : text.toLowerCase().replace(/\s+/g, '_');
    if (keyword && !out.includes(keyword)) out.push(keyword);
  }
  return out;
}

/** `_coerce_section_and_keywords`: a legacy section becomes `context`, its name the first keyword. */
function coerceSection(section: string, keywords: readonly PyValue[]): [string, string[]] {
  const name = requiredText(section, 'section').toLowerCase();
  const normalized = normalizeKeywords(keywords);
  if (VALID_SECTIONS.has(name)) return [name, normalized];
  return ['context', normalizeKeywords([name, ...normalized])];
}

function count(value: PyValue | undefined): number {
  return value instanceof PyNumber ? Math.trunc(value.value) : 0;
}

/** The model of ACE's `Skillbook`. */
export class AceSkillbook {
  readonly skills = new Map<string, AceSkill>();
  sections = new Map<string, string[]>();
  nextId = 0;
  /** `similarity_decisions`, kept as loaded. */
  similarity: PyObject = new Map();

  /** `Skillbook.loads` (`from_dict`). Throws as ACE raises. */
  static loads(text: string): AceSkillbook {
    const payload = loads(text);
    if (!(payload instanceof Map)) throw new Error('ValueError: Skillbook serialization must be a JSON object.');
    const version = payload.get('schema_version');
    if (optionalText(version ?? null) !== '2') throw new Error('ValueError: Skillbook format v2 required — regenerate');
    const book = new AceSkillbook();
    const skills = payload.get('skills');
    if (skills instanceof Map) for (const [id, value] of skills) if (value instanceof Map) book.skills.set(id, fromDict(value));
    const sections = payload.get('sections');
    if (sections instanceof Map) {
      for (const [name, ids] of sections)
        if (Array.isArray(ids))
          book.sections.set(
            name,
            ids.map((x) => optionalText(x) ?? ''),
          );
    }
    const next = payload.get('next_id');
    book.nextId = next === null || next === undefined ? 0 : count(next);
    const decisions = payload.get('similarity_decisions');
    if (decisions instanceof Map) book.similarity = decisions;
    if (book.sections.size === 0) for (const s of book.skills.values()) book.sectionList(s.section).push(s.id);
    return book;
  }

  /** `Skillbook.load_from_file`. */
  static loadFromFile(path: string): AceSkillbook {
    return AceSkillbook.loads(readFileSync(path, 'utf8'));
  }

  private sectionList(name: string): string[] {
    let list = this.sections.get(name);
    if (!list) this.sections.set(name, (list = []));
    return list;
  }

  /** `add_skill(section, issue, keywords=…, insight=…)`: the id from ACE's own counter. */
  addSkill(section: string, issue: string, options: { keywords?: readonly string[]; insight?: string } = {}): AceSkill {
    const raw = requiredText(section, 'section').toLowerCase();
    const [normalized, coerced] = coerceSection(section, options.keywords ?? []);
    const issueText = requiredText(issue, 'issue');
    let insight = optionalText(options.insight ?? null);
    const keywords = coerced.length > 0 ? coerced : normalizeKeywords([raw]);
    if (normalized === 'context' && insight === null) {
      if (VALID_SECTIONS.has(raw)) throw new Error('ValueError: context skills require a non-empty insight');
      insight = issueText;
    }
    this.nextId += 1;
    const id = `${normalized.split(/\s+/)[0]?.toLowerCase() ?? normalized}-${String(this.nextId).padStart(5, '0')}`;
    const created = nowIso();
    const skill: AceSkill = {
      id,
      section: normalized,
      keywords,
      issue: issueText,
      insight,
      occurrences: [],
      active: true,
      used_count: 0,
      helpful_count: 0,
      harmful_count: 0,
      neutral_count: 0,
      created_at: created,
      updated_at: nowIso(),
    };
    this.skills.set(id, skill);
    this.sectionList(normalized).push(id);
    return skill;
  }

  /** `update_skill(id, issue=…, keywords=…, insight=…)`; `null` for an unknown id. */
  updateSkill(id: string, change: { issue?: string; keywords?: readonly string[]; insight?: string }): AceSkill | null {
    const skill = this.skills.get(id);
    if (!skill) return null;
    if (change.issue !== undefined) skill.issue = requiredText(change.issue, 'issue');
    if (change.keywords !== undefined) {
      const keywords = normalizeKeywords(change.keywords);
      if (keywords.length === 0) throw new Error('ValueError: keywords are required and must be non-empty');
      skill.keywords = keywords;
    }
    if (change.insight !== undefined) skill.insight = optionalText(change.insight);
    if (skill.section === 'context' && !skill.insight) throw new Error('ValueError: context skills require a non-empty insight');
    skill.updated_at = nowIso();
    return skill;
  }

  /** `tag_skill(id, delta)`: helpful (1), harmful (-1) or neutral (0). */
  tagSkill(id: string, delta: 1 | -1 | 0): AceSkill | null {
    const skill = this.skills.get(id);
    if (!skill) return null;
    if (delta === 1) skill.helpful_count += 1;
    else if (delta === -1) skill.harmful_count += 1;
    else skill.neutral_count += 1;
    skill.updated_at = nowIso();
    return skill;
  }

  /** `mark_used(ids)`: `used_count` of each active skill. */
  markUsed(ids: readonly string[]): void {
    for (const id of ids) {
      const skill = this.skills.get(id);
      if (skill?.active) {
        skill.used_count += 1;
        skill.updated_at = nowIso();
      }
    }
  }

  /** `remove_skill(id)`: the soft remove (the skill stays, inactive). */
  removeSkill(id: string): void {
    const skill = this.skills.get(id);
    if (!skill) return;
    skill.active = false;
    skill.updated_at = nowIso();
  }

  /** `to_dict()`. */
  toDict(): PyObject {
    const skills: PyObject = new Map();
    for (const [id, s] of this.skills) {
      skills.set(
        id,
        new Map<string, PyValue>([
          ['id', s.id],
          ['section', s.section],
          ['keywords', [...s.keywords]],
          ['issue', s.issue],
          ['insight', s.insight],
          ['occurrences', s.occurrences],
          ['active', s.active],
          ['used_count', new PyNumber(String(s.used_count))],
          ['helpful_count', new PyNumber(String(s.helpful_count))],
          ['harmful_count', new PyNumber(String(s.harmful_count))],
          ['neutral_count', new PyNumber(String(s.neutral_count))],
          ['created_at', s.created_at],
          ['updated_at', s.updated_at],
        ]),
      );
    }
    const sections: PyObject = new Map([...this.sections].map(([k, v]) => [k, [...v]]));
    return new Map<string, PyValue>([
      ['schema_version', '2'],
      ['skills', skills],
      ['sections', sections],
      ['next_id', new PyNumber(String(this.nextId))],
      ['similarity_decisions', this.similarity],
    ]);
  }

  /** `dumps()`. */
  dumps(): string {
    return dumps(this.toDict());
  }

  /** `save_to_file(path)`: the whole document, written in place (no temporary file, no rename). */
  saveToFile(path: string): void {
    writeFileSync(path, this.dumps(), 'utf8');
  }
}

/** One skill of a loaded document (`from_dict`'s per-skill normalisation). */
function fromDict(data: PyObject): AceSkill {
  const rawKeywords = data.get('keywords');
  let keywords = normalizeKeywords(Array.isArray(rawKeywords) ? rawKeywords : []);
  if (keywords.length === 0) keywords = normalizeKeywords([data.get('section') ?? 'context']);
  const [section, coerced] = coerceSection(optionalText(data.get('section') ?? 'context') ?? 'context', keywords);
  const active = data.get('active');
  const now = nowIso();
  const text = (k: string): string | null => optionalText(data.get(k) ?? null);
  return {
    id: optionalText(data.get('id') ?? null) ?? '',
    section,
    keywords: coerced,
    issue: requiredText(data.get('issue'), 'issue'),
    insight: text('insight'),
    occurrences: Array.isArray(data.get('occurrences')) ? (data.get('occurrences') as PyValue[]).filter((o) => o instanceof Map) : [],
    active: active === undefined ? true : Boolean(active instanceof PyNumber ? active.value : active),
    used_count: count(data.get('used_count')),
    helpful_count: count(data.get('helpful_count')),
    harmful_count: count(data.get('harmful_count')),
    neutral_count: count(data.get('neutral_count')),
    created_at: text('created_at') ?? now,
    updated_at: text('updated_at') ?? now,
  };
}
