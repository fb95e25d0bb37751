import type { BookDiff, SkillView } from '../src/Recording.ts';
import { h } from './dom.ts';
import { plural } from './format.ts';

/** The book before and after the run, as a diff of skills. */
export function renderBook(diff: BookDiff | null): HTMLElement {
  const section = h('section', { class: 'book', 'data-testid': 'book-diff' }, h('h2', {}, 'The book'));
  if (!diff) {
    section.append(h('p', { class: 'muted' }, 'No book was recorded for this run (a recording made from events alone).'));
    return section;
  }
  const { counts } = diff;
  section.append(
    h(
      'p',
      {},
      `Revision ${diff.before.revision} (${plural(diff.before.skills, 'skill')}) → revision ${diff.after.revision} (${plural(diff.after.skills, 'skill')}): `,
      `${counts.added} added, ${counts.changed} changed, ${counts.removed} removed, ${counts.unchanged} unchanged.`,
    ),
    group('Added', 'added', diff.added, counts.added, (skill) => skillLine(skill)),
    group('Changed', 'changed', diff.changed, counts.changed, (c) => h('div', {}, skillLine(c.after), changes(c.before, c.after))),
    group('Removed', 'removed', diff.removed, counts.removed, (skill) => skillLine(skill)),
  );
  return section;
}

function group<T>(title: string, kind: string, items: readonly T[], total: number, line: (item: T) => HTMLElement): HTMLElement | string {
  if (total === 0) return '';
  return h(
    'div',
    { class: `diff-group diff-${kind}` },
    h('h3', {}, `${title} (${total})`),
    h('ul', {}, ...items.map((item) => h('li', { class: `diff-${kind}` }, line(item)))),
    total > items.length ? h('p', { class: 'muted' }, `… and ${total - items.length} more.`) : '',
  );
}

function skillLine(skill: SkillView): HTMLElement {
  return h(
    'span',
    {},
    h('code', {}, skill.id),
    ` [${skill.section}] `,
    h('b', {}, skill.issue),
    skill.insight ? ` → ${skill.insight}` : '',
    skill.keywords.length > 0 ? h('span', { class: 'muted' }, ` (${skill.keywords.join(', ')})`) : '',
    skill.active ? '' : h('span', { class: 'muted' }, ' (inactive)'),
  );
}

function changes(before: SkillView, after: SkillView): HTMLElement {
  const rows: HTMLElement[] = [];
  const field = (name: string, a: unknown, b: unknown): void => {
    const from = Array.isArray(a) ? a.join(', ') : String(a ?? '');
    const to = Array.isArray(b) ? b.join(', ') : String(b ?? '');
    if (from !== to) rows.push(h('li', {}, `${name}: `, h('del', {}, from || '∅'), ' → ', h('ins', {}, to || '∅')));
  };
  field('issue', before.issue, after.issue);
  field('insight', before.insight, after.insight);
  field('keywords', before.keywords, after.keywords);
  field('active', before.active, after.active);
  field('helpful', before.helpful, after.helpful);
  field('harmful', before.harmful, after.harmful);
  field('neutral', before.neutral, after.neutral);
  return h('ul', { class: 'field-changes' }, ...rows);
}
