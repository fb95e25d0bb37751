/**
 * The baselines' book: ACE's Skillbook document as a plain, mutable JavaScript object, changed
 * in place the way ACE's Python `Skillbook` changes its dicts (`add_skill`, `update_skill`,
 * `tag_skill`, `remove_skill`). No isolation, no validation, no revisions: what Cohort is
 * compared against.
 */
import type { Skillbook } from '@cohort/skillbook';

/** One skill of an ACE schema-v2 document. */
export interface AceSkill {
  id: string;
  section: string;
  keywords: string[];
  issue: string;
  insight: string | null;
  occurrences: unknown[];
  active: boolean;
  used_count: number;
  helpful_count: number;
  harmful_count: number;
  neutral_count: number;
  created_at: string;
  updated_at: string;
}

/** An ACE schema-v2 document, as `JSON.parse` gives it. */
export interface AceDoc {
  schema_version: string;
  skills: Record<string, AceSkill>;
  sections: Record<string, string[]>;
  next_id: number;
  similarity_decisions: Record<string, unknown>;
}

/** The document of `book`, as a plain mutable object. */
export function aceDocOf(book: Skillbook): AceDoc {
  return JSON.parse(book.toJSON()) as AceDoc;
}

function stamp(): string {
  return new Date().toISOString().replace('Z', '000+00:00');
}

/** ACE `add_skill`: allocates `<section>-<5 digits>` from `next_id` and appends to the section. */
export function aceAdd(doc: AceDoc, section: string, issue: string, insight: string): string {
  doc.next_id += 1;
  const id = `${section}-${String(doc.next_id).padStart(5, '0')}`;
  const at = stamp();
  doc.skills[id] = {
    id,
    section,
    keywords: [section],
    issue,
    insight,
    occurrences: [],
    active: true,
    used_count: 0,
    helpful_count: 0,
    harmful_count: 0,
    neutral_count: 0,
    created_at: at,
    updated_at: at,
  };
  (doc.sections[section] ??= []).push(id);
  return id;
}

/** ACE `update_skill`: assigns the given fields in place. */
export function aceUpdate(doc: AceDoc, id: string, fields: { readonly insight?: string; readonly issue?: string }): boolean {
  const skill = doc.skills[id];
  if (!skill) return false;
  if (fields.issue !== undefined) skill.issue = fields.issue;
  if (fields.insight !== undefined) skill.insight = fields.insight;
  skill.updated_at = stamp();
  return true;
}

/** ACE `tag_skill`: bumps a counter in place. */
export function aceTag(doc: AceDoc, id: string, tag: 'helpful' | 'harmful' | 'neutral'): boolean {
  const skill = doc.skills[id];
  if (!skill) return false;
  skill[`${tag}_count`] += 1;
  skill.updated_at = stamp();
  return true;
}

/** ACE `remove_skill` (soft): clears `active` in place. */
export function aceRemove(doc: AceDoc, id: string): boolean {
  const skill = doc.skills[id];
  if (!skill) return false;
  skill.active = false;
  skill.updated_at = stamp();
  return true;
}

/**
 * Merges a child's deep copy back into its parent, last writer wins (what a deep-copying fix
 * does): every skill the child touched replaces the parent's, new ids join their sections.
 */
export function aceMergeBack(parent: AceDoc, child: AceDoc, touched: readonly string[]): void {
  for (const id of touched) {
    const skill = child.skills[id];
    if (!skill) continue;
    if (!parent.skills[id]) (parent.sections[skill.section] ??= []).push(id);
    parent.skills[id] = skill;
  }
  parent.next_id = Math.max(parent.next_id, child.next_id);
}
