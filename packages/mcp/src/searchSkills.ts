import type { Skill, Skillbook } from '@cohort/skillbook';
import { normalizeKeyword } from '@cohort/skillbook';

/** What to look for: free text, keywords, or both; at most `limit` results. */
export interface SkillQuery {
  readonly text?: string | undefined;
  readonly keywords?: readonly string[] | undefined;
  readonly section?: string | undefined;
  readonly limit: number;
}

/** One result: the skill and its score (higher is more relevant). */
export interface SkillHit {
  readonly skill: Skill;
  readonly score: number;
}

/** Points per query term found: in the skill's keywords, its issue, its insight. */
const WEIGHTS = { keyword: 3, issue: 2, insight: 1 } as const;

/** Lower-case words of at least two letters or digits. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}

/**
 * The active skills that match `query`, best first. Each query term — a word of `text`, or a
 * keyword (normalised as skills' keywords are) — scores once per field it is found in: 3 for
 * one of the skill's keywords (a keyword term matches a keyword exactly; a text word matches a
 * keyword or a word of it), 2 for a word of the issue, 1 for a word of the insight. Skills
 * that score nothing are left out; ties go to the skill found more helpful
 * (`helpful_count - harmful_count`), then to the earlier one in the book. One pass over the
 * book's skills: O(n) per search.
 *
 * @example
 * searchSkills(book, { text: 'flaky network retries', limit: 5 }).map((h) => h.skill.id);
 */
export function searchSkills(book: Skillbook, query: SkillQuery): SkillHit[] {
  const textTerms = new Set(words(query.text ?? ''));
  const keywordTerms = new Set((query.keywords ?? []).map(normalizeKeyword).filter((k): k is string => k !== null && k.length > 0));
  if (textTerms.size === 0 && keywordTerms.size === 0) return [];
  const hits: { skill: Skill; score: number; order: number }[] = [];
  let order = 0;
  for (const skill of book.skills()) {
    order++;
    if (!skill.active || (query.section !== undefined && skill.section !== query.section)) continue;
    const score = scoreSkill(skill, textTerms, keywordTerms);
    if (score > 0) hits.push({ skill, score, order });
  }
  const merit = (s: Skill) => s.helpful_count - s.harmful_count;
  hits.sort((a, b) => b.score - a.score || merit(b.skill) - merit(a.skill) || a.order - b.order);
  return hits.slice(0, query.limit).map(({ skill, score }) => ({ skill, score }));
}

function scoreSkill(skill: Skill, textTerms: ReadonlySet<string>, keywordTerms: ReadonlySet<string>): number {
  const keywords = new Set(skill.keywords);
  const keywordWords = new Set(skill.keywords.flatMap((k) => words(k.replaceAll('_', ' '))));
  const issue = new Set(words(skill.issue));
  const insight = new Set(words(skill.insight ?? ''));
  let score = 0;
  for (const term of keywordTerms) {
    if (keywords.has(term)) score += WEIGHTS.keyword;
    const parts = words(term.replaceAll('_', ' '));
    if (parts.some((w) => issue.has(w))) score += WEIGHTS.issue;
    if (parts.some((w) => insight.has(w))) score += WEIGHTS.insight;
  }
  for (const term of textTerms) {
    if (keywords.has(term) || keywordWords.has(term)) score += WEIGHTS.keyword;
    if (issue.has(term)) score += WEIGHTS.issue;
    if (insight.has(term)) score += WEIGHTS.insight;
  }
  return score;
}
