/**
 * ACE's `as_prompt()` and `stats()`, over a book state.
 */
import type { BookState } from './internal/BookState.ts';
import { listForEach } from './internal/ChunkedList.ts';
import { pyRstrip } from './internal/python.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import { SECTIONS } from './normalize.ts';
import type { SkillbookStats } from './types.ts';

/**
 * The prompt text, exactly as ACE's `as_prompt()`: `## context` then `## harness`, each
 * listing the active skills of that `sections` list in order (id, keywords, issue, insight
 * when present), a blank line after each skill, trailing white space stripped. An id listed
 * in `sections` with no skill behind it is skipped (ACE would raise a `KeyError`).
 */
export function renderPrompt(state: BookState): string {
  const parts: string[] = [];
  for (const section of SECTIONS) {
    const list = state.sections.get(section);
    if (!list) continue;
    const lines: string[] = [];
    listForEach(list, (id) => {
      const skill = shardedGet(state.skills, id)?.skill;
      if (!skill?.active) return;
      lines.push(`- [${skill.id}]`, `  Keywords: ${skill.keywords.join(', ')}`, `  Issue: ${skill.issue}`);
      if (skill.insight) lines.push(`  Insight: ${skill.insight}`);
      lines.push('');
    });
    if (lines.length > 0) parts.push(`## ${section}`, ...lines);
  }
  return pyRstrip(parts.join('\n'));
}

/**
 * ACE's `stats()`: `skills` counts inactive skills too; `by_section` counts active skills of
 * each real section; `sections` is the number of sections with at least one. O(1).
 */
export function computeStats(state: BookState): SkillbookStats {
  const { context, harness } = state.active;
  return Object.freeze({
    sections: (context > 0 ? 1 : 0) + (harness > 0 ? 1 : 0),
    skills: state.skills.size,
    active_skills: context + harness,
    by_section: Object.freeze({ context, harness }),
  });
}
