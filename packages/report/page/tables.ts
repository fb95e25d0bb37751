import type { Conflict } from '@cohort/skillbook';
import type { SessionRecord } from '../src/Recording.ts';
import { h } from './dom.ts';

type Op = SessionRecord['landed'][number]['ops'][number];

/** Ops as a table: type, skill, and what it says. */
export function opsTable(ops: readonly Op[]): HTMLElement {
  return table(
    ['op', 'skill', 'section', 'content'],
    ops.map((op) => [h('code', { class: `op op-${op.type}` }, op.type), op.skill_id, op.section, opText(op)]),
  );
}

/** Conflicts as a table: op, skill, why, and when the target changed (see {@link changedAt}). */
export function conflictTable(conflicts: readonly Conflict[], atRoot: boolean): HTMLElement {
  return table(
    ['op #', 'op', 'skill', 'reason', 'changed at'],
    conflicts.map((c) => [String(c.opIndex), h('code', {}, c.type), c.skillId, c.reason.replace(/_/g, ' '), changedAt(c, atRoot)]),
  );
}

/** When a conflict's target changed: a revision of the book for a root session's commit, else a step of the parent's draft. */
export function changedAt(conflict: Conflict, atRoot: boolean): string {
  return atRoot ? `book revision ${conflict.revision}` : `draft step ${conflict.revision}`;
}

/** A plain table. */
export function table(head: readonly string[], rows: readonly (readonly (Node | string)[])[]): HTMLElement {
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((c) => h('td', {}, c))))),
  );
}

function opText(op: Op): string {
  const parts: string[] = [];
  if (op.issue) parts.push(op.issue);
  if (op.insight) parts.push(`→ ${op.insight}`);
  if (op.metadata)
    parts.push(
      Object.entries(op.metadata)
        .map(([k, v]) => `${k} +${v}`)
        .join(', '),
    );
  if (op.reason) parts.push(`reason: ${op.reason}`);
  return parts.join(' ');
}
