import type { Recording, RunRecord } from '../src/Recording.ts';
import { renderBook } from './book.ts';
import { renderDetails } from './details.ts';
import { h, replace } from './dom.ts';
import { commonIdPrefix, filterRows, isFiltering } from './filter.ts';
import type { SessionFilter } from './filter.ts';
import { plural } from './format.ts';
import { linkTo, readLink } from './link.ts';
import { indexRun, countSessions, runSpan, visibleRows } from './model.ts';
import type { RunIndex } from './model.ts';
import { renderConflictsAndNotices } from './notices.ts';
import { renderTimeline } from './timeline.ts';
import { renderTree } from './tree.ts';

/** The live view's connection, when the page is live. */
export type LiveStatus = 'connecting' | 'live' | 'finished' | 'disconnected';

/**
 * The page: a recording, the run shown, the selected session and the collapsed ones. Changes
 * are rendered on the next animation frame, all at once.
 */
export class App {
  private runIndex = 0;
  /** Whether the reader chose the run shown (by a button or a link); until then a live view shows its newest. */
  private pinned = false;
  private selected: string | null = null;
  private readonly collapsed = new Set<string>();
  private scheduled = false;
  private rendered = false;
  private filter: SessionFilter = { status: 'all', text: '' };
  /** The session the page's link names, until it is in the recording (a live view may get it later). */
  private linked = readLink(location.hash);
  private readonly el = {
    search: h('input', {
      type: 'search',
      class: 'search',
      placeholder: 'search names, ids, failures, messages, tool calls',
      'aria-label': 'search sessions',
      'data-testid': 'session-search',
    }),
    status: h(
      'select',
      { 'aria-label': 'status', 'data-testid': 'status-filter' },
      ...['all', 'live', 'committed', 'failed'].map((v) => h('option', { value: v }, v === 'all' ? 'all statuses' : v)),
    ),
    shown: h('p', { class: 'shown muted', 'data-testid': 'shown' }),
    title: h('h1'),
    runs: h('nav', { class: 'runs', 'aria-label': 'runs' }),
    counts: h('p', { class: 'counts' }),
    supervisor: h('p', { class: 'supervisor muted' }),
    live: h('p', { class: 'live-status', 'data-testid': 'live-status' }),
    tree: h('div', { class: 'tree', role: 'tree', 'aria-label': 'session tree', 'data-testid': 'session-tree' }),
    details: h('aside', { class: 'details-panel' }),
    timeline: h('div', { class: 'timeline-box' }),
    book: h('div'),
    notices: h('div'),
  };

  constructor(
    private readonly root: HTMLElement,
    public recording: Recording,
    public live: LiveStatus | null,
    private readonly startedAt: number,
  ) {
    const e = this.el;
    replace(
      root,
      h('header', {}, e.title, e.runs, e.counts, e.supervisor, e.live),
      h(
        'main',
        { class: 'layout' },
        h('section', { class: 'tree-panel' }, h('h2', {}, 'Sessions'), h('div', { class: 'filters' }, e.search, e.status), e.shown, e.tree),
        e.details,
      ),
      h('section', { class: 'timeline-panel' }, h('h2', {}, 'Timeline'), legend(), e.timeline),
      e.book,
      e.notices,
    );
    e.search.addEventListener('input', () => this.setFilter({ ...this.filter, text: e.search.value }));
    e.status.addEventListener('change', () => this.setFilter({ ...this.filter, status: e.status.value }));
    window.addEventListener('hashchange', () => {
      this.linked = readLink(location.hash);
      this.update();
    });
  }

  private setFilter(filter: SessionFilter): void {
    this.filter = filter;
    this.update();
  }

  /** Follows the page's link once its session is in the recording: its run shown, it selected and in view. */
  private followLink(): void {
    const { run: runId, session } = this.linked;
    if (!session) return;
    const runs = this.recording.runs;
    const i = runs.findIndex((r) => (runId === null || r.id === runId) && r.sessions.some((x) => x.id === session));
    if (i < 0) return;
    this.linked = { run: null, session: null };
    this.runIndex = i;
    this.pinned = true;
    this.selected = session;
    requestAnimationFrame(() =>
      this.el.tree.querySelector(`[data-session-id="${CSS.escape(session)}"]`)?.scrollIntoView({ block: 'nearest' }),
    );
  }

  /** Renders on the next frame (many changes, one render). */
  update(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  }

  select = (id: string): void => {
    this.selected = id;
    const runs = this.recording.runs;
    history.replaceState(null, '', linkTo(id, runs.length > 1 ? (runs[this.runIndex]?.id ?? null) : null));
    this.update();
  };

  toggle = (id: string): void => {
    if (!this.collapsed.delete(id)) this.collapsed.add(id);
    this.update();
  };

  /** Renders everything now. */
  render(): void {
    this.followLink();
    if (this.live !== null && !this.pinned) this.runIndex = Math.max(0, this.recording.runs.length - 1);
    const run = this.recording.runs[this.runIndex] ?? this.recording.runs[0];
    const e = this.el;
    replace(e.title, this.recording.title);
    document.title = this.recording.title;
    this.renderRuns();
    e.live.hidden = this.live === null;
    e.live.dataset['state'] = this.live ?? '';
    replace(e.live, this.live ? `live view: ${this.live}` : '');
    if (!run) {
      replace(e.counts, 'No runs recorded yet.');
      this.root.dataset['rendered'] = 'true';
      return;
    }
    const index = indexRun(run);
    const span = runSpan(run);
    this.renderHeader(run);
    const prefix = commonIdPrefix(run);
    const { rows, context } = filterRows(visibleRows(index, this.collapsed), run, this.filter);
    const matched = rows.length - context.size;
    replace(
      e.shown,
      isFiltering(this.filter) ? `${matched} of ${run.sessions.length} sessions match` : '',
      prefix ? h('span', { class: 'prefix' }, ` Session ids below start with `, h('code', {}, prefix), ` (shown as …).`) : '',
    );
    renderTree(e.tree, rows, this.selected, span.end, { select: this.select, toggle: this.toggle }, { prefix, context });
    this.renderDetails(span.start, index, prefix, run.id);
    replace(
      e.timeline,
      renderTimeline(
        run,
        visibleRows(index, new Set()).map((r) => r.session),
        this.selected,
        this.select,
      ),
    );
    replace(e.book, renderBook(run.book));
    replace(e.notices, renderConflictsAndNotices(run, span.start, this.select));
    if (!this.rendered) {
      this.rendered = true;
      this.root.dataset['renderMs'] = String(Math.round(performance.now() - this.startedAt));
    }
    this.root.dataset['rendered'] = 'true';
    this.root.removeAttribute('data-loading');
  }

  private renderRuns(): void {
    const runs = this.recording.runs;
    this.el.runs.hidden = runs.length < 2;
    replace(
      this.el.runs,
      ...runs.map((r: RunRecord, i) =>
        h(
          'button',
          {
            'data-run': r.id,
            'aria-pressed': i === this.runIndex ? 'true' : 'false',
            onclick: () => {
              this.runIndex = i;
              this.pinned = true;
              this.selected = null;
              this.update();
            },
          },
          r.label,
          h('span', { class: 'muted' }, ` · ${plural(r.sessions.length, 'session')}${r.endedAt === null ? ' · live' : ''}`),
        ),
      ),
    );
  }

  private renderHeader(run: RunRecord): void {
    const c = countSessions(run);
    const count = (id: string, n: number, word: string): HTMLElement =>
      h('span', { class: `count count-${id}` }, h('b', { 'data-testid': `count-${id}` }, String(n)), ` ${word}`);
    replace(
      this.el.counts,
      count('sessions', c.sessions, 'sessions'),
      ' · ',
      count('running', c.running, 'live'),
      ' · ',
      count('committed', c.committed, 'committed'),
      ' · ',
      count('failed', c.failed, 'failed'),
    );
    const sup = run.supervisor;
    replace(
      this.el.supervisor,
      sup ? `Root supervisor ${sup.actorId}: ${sup.state}, ${sup.inFlight} commits in flight, ${sup.waiting} waiting` : '',
    );
  }

  private renderDetails(start: number, index: RunIndex, prefix: string, runId: string): void {
    const session = this.selected ? index.byId.get(this.selected) : undefined;
    const run = this.recording.runs.length > 1 ? runId : null;
    replace(
      this.el.details,
      session
        ? renderDetails(session, start, index, this.select, {
            prefix,
            content: this.recording.content ?? 'on',
            link: linkTo(session.id, run),
          })
        : h('p', { class: 'hint muted' }, 'Select a session to see its ops, merges and failure.'),
    );
  }
}

function legend(): HTMLElement {
  const item = (cls: string, text: string): HTMLElement => h('span', { class: `key ${cls}` }, text);
  return h(
    'p',
    { class: 'legend' },
    item('seg-running', 'running'),
    item('seg-draining', 'draining'),
    item('seg-committing', 'committing'),
    item('key-committed', '◆ merged'),
    item('key-failed', '✕ failed'),
    item('key-notice', '| store notice'),
  );
}
