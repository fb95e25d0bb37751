import { h, replace } from './dom.ts';
import { shortId } from './filter.ts';
import { duration, label, lifetime, statusText, workerChain } from './format.ts';
import type { TreeRow } from './model.ts';

/** Above this many visible rows only the rows in view are in the document (the tree is virtualised). */
export const VIRTUALISE_ABOVE = 2000;
/** A row's height in pixels when virtualised (the stylesheet's `.tree.virtual .session` height). */
export const ROW_HEIGHT = 26;
const OVERSCAN = 20;

/** What the tree calls back. */
export interface TreeActions {
  select(id: string): void;
  toggle(id: string): void;
}

/** How rows are shown: ids without the run's common prefix; `context` rows are ancestors of a search's matches. */
export interface TreeLook {
  readonly prefix: string;
  readonly context: ReadonlySet<string>;
}

const PLAIN: TreeLook = { prefix: '', context: new Set() };

/**
 * The session tree: one row per visible session, indented by depth, with its name, path,
 * status (colour and text), the worker that ran it and a `resumed` badge (a durable tree's),
 * attempt and duration. Each row carries `data-session-id` and
 * `data-status` (and `data-failure` with the failure's kind). Large trees render only the rows
 * in view, on a spacer as tall as all of them.
 */
export function renderTree(
  host: HTMLElement,
  rows: readonly TreeRow[],
  selected: string | null,
  now: number,
  actions: TreeActions,
  look: TreeLook = PLAIN,
): void {
  host.dataset['rows'] = String(rows.length);
  if (rows.length <= VIRTUALISE_ABOVE) {
    host.classList.remove('virtual');
    host.onscroll = null;
    replace(host, ...rows.map((row) => rowElement(row, selected, now, actions, look)));
    return;
  }
  host.classList.add('virtual');
  const spacer = h('div', { class: 'spacer', style: `height:${rows.length * ROW_HEIGHT}px` });
  const paint = (): void => {
    const first = Math.max(0, Math.floor(host.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((host.scrollTop + host.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const visible: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const el = rowElement(rows[i]!, selected, now, actions, look);
      el.style.top = `${i * ROW_HEIGHT}px`;
      visible.push(el);
    }
    replace(spacer, ...visible);
  };
  let queued = false;
  host.onscroll = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      paint();
    });
  };
  replace(host, spacer);
  paint();
}

function rowElement(row: TreeRow, selected: string | null, now: number, actions: TreeActions, look: TreeLook): HTMLElement {
  const { session } = row;
  const twisty =
    row.children > 0
      ? h(
          'button',
          {
            class: 'twisty',
            'aria-label': `${row.expanded ? 'collapse' : 'expand'} ${label(session)}`,
            onclick: (e) => {
              e.stopPropagation();
              actions.toggle(session.id);
            },
          },
          row.expanded ? '▾' : '▸',
        )
      : h('span', { class: 'twisty' });
  return h(
    'div',
    {
      class: `session status-${session.status}${session.id === selected ? ' selected' : ''}${look.context.has(session.id) ? ' context' : ''}`,
      role: 'treeitem',
      tabindex: 0,
      'aria-level': row.depth + 1,
      'aria-selected': session.id === selected ? 'true' : 'false',
      'aria-expanded': row.children > 0 ? String(row.expanded) : null,
      'data-session-id': session.id,
      'data-status': session.status,
      'data-failure': session.failure?.kind ?? null,
      style: `padding-left:${0.25 + row.depth * 1.1}rem`,
      onclick: () => actions.select(session.id),
      onkeydown: (e) => keyed(e as KeyboardEvent, row, actions),
    },
    twisty,
    h('span', { class: 'dot', 'aria-hidden': 'true' }),
    h('span', { class: 'name', title: session.id }, session.name ?? shortId(session.id, look.prefix)),
    h('span', { class: 'path', title: session.path.join(' / ') }, session.path.map((id) => shortId(id, look.prefix)).join(' / ')),
    h('span', { class: 'status' }, statusText(session)),
    session.worker ? h('span', { class: 'worker', 'data-worker': session.worker, title: 'the worker that ran it' }, session.worker) : null,
    resumedBadge(session),
    h('span', { class: 'attempt' }, `attempt ${session.attempt}`),
    h('span', { class: 'duration' }, duration(lifetime(session, now))),
    row.children > 0 && !row.expanded ? h('span', { class: 'hidden-count' }, `+${row.children}`) : null,
  );
}

/** `resumed` (`resumed ×2` after two resumes), titled with the workers it ran on; null when never resumed. */
function resumedBadge(session: TreeRow['session']): HTMLElement | null {
  const n = session.resumes?.length ?? 0;
  if (n === 0) return null;
  return h(
    'span',
    { class: 'resumed', 'data-resumes': n, title: `resumed: ${workerChain(session)}` },
    n === 1 ? 'resumed' : `resumed ×${n}`,
  );
}

function keyed(event: KeyboardEvent, row: TreeRow, actions: TreeActions): void {
  if (event.key === 'Enter' || event.key === ' ') actions.select(row.session.id);
  else if (row.children > 0 && ((event.key === 'ArrowRight' && !row.expanded) || (event.key === 'ArrowLeft' && row.expanded))) {
    actions.toggle(row.session.id);
  } else return;
  event.preventDefault();
}
