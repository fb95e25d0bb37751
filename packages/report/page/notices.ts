import type { RunRecord } from '../src/Recording.ts';
import { h } from './dom.ts';
import { label, offset } from './format.ts';
import { conflictsOf } from './model.ts';
import { changedAt, table } from './tables.ts';

/** Every conflict of the run (rejected and dropped), the store's notices and the runtime's marks. */
export function renderConflictsAndNotices(run: RunRecord, start: number, select: (id: string) => void): HTMLElement {
  const conflicts = conflictsOf(run);
  const section = h('section', { class: 'notices', 'data-testid': 'conflicts' }, h('h2', {}, 'Conflicts and notices'));
  section.append(h('h3', {}, `Conflicts (${conflicts.length})`));
  section.append(
    conflicts.length === 0
      ? h('p', { class: 'muted' }, 'No conflicts.')
      : table(
          ['session', 'outcome', 'op', 'skill', 'reason', 'changed at'],
          conflicts.map(({ session, dropped, conflict }) => [
            h(
              'a',
              {
                href: `#${session.id}`,
                onclick: (e) => {
                  e.preventDefault();
                  select(session.id);
                },
              },
              `${label(session)} (${session.id})`,
            ),
            dropped ? 'op dropped, rest merged' : 'commit rejected',
            h('code', {}, `${conflict.type} #${conflict.opIndex}`),
            conflict.skillId,
            conflict.reason.replace(/_/g, ' '),
            changedAt(conflict, session.parentId === null),
          ]),
        ),
  );
  section.append(h('h3', {}, `Store notices (${run.notices.length})`));
  section.append(
    run.notices.length === 0
      ? h('p', { class: 'muted' }, 'No store notices.')
      : h(
          'ul',
          { class: 'notice-list' },
          ...run.notices.map(({ seenAt, notice }) =>
            h(
              'li',
              { 'data-notice': notice.type },
              h('code', {}, notice.type),
              ` ${offset(seenAt, start)} `,
              summary(notice as unknown as Record<string, unknown>),
              h('details', {}, h('summary', {}, 'all fields'), h('pre', {}, JSON.stringify(notice, null, 2))),
            ),
          ),
        ),
  );
  if (run.marks.length > 0) {
    section.append(
      h('h3', {}, `Runtime marks (${run.marks.length})`),
      h(
        'ul',
        {},
        ...run.marks.map((m) =>
          h(
            'li',
            {},
            m.type === 'backpressure'
              ? `${offset(m.at, start)} back-pressure: ${m.sessionId} waited for room (${m.queued} commits in flight)`
              : `${offset(m.at, start)} runtime defect: ${m.error.name}: ${m.error.message}`,
          ),
        ),
      ),
    );
  }
  return section;
}

/** The fields a person reads first, when the notice has them. */
function summary(notice: Record<string, unknown>): string {
  const keys = ['revision', 'reason', 'copy', 'depth', 'message', 'file', 'source'];
  return keys
    .filter((k) => notice[k] !== undefined && notice[k] !== null)
    .map((k) => `${k}: ${String(notice[k])}`)
    .join(', ');
}
