import type { Recording, RunRecord } from '../src/Recording.ts';
import { renderBook } from './book.ts';
import { renderDetails } from './details.ts';
import { h, replace } from './dom.ts';
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
  private selected: string | null = null;
  private readonly collapsed = new Set<string>();
  private scheduled = false;
  private rendered = false;
  private readonly el = {
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
      h('main', { class: 'layout' }, h('section', { class: 'tree-panel' }, h('h2', {}, 'Sessions'), e.tree), e.details),
      h('section', { class: 'timeline-panel' }, h('h2', {}, 'Timeline'), legend(), e.timeline),
      e.book,
      e.notices,
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
    this.update();
  };

  toggle = (id: string): void => {
    if (!this.collapsed.delete(id)) this.collapsed.add(id);
    this.update();
  };

  /** Renders everything now. */
  render(): void {
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
    renderTree(e.tree, visibleRows(index, this.collapsed), this.selected, span.end, { select: this.select, toggle: this.toggle });
    this.renderDetails(span.start, index);
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
              this.selected = null;
              this.update();
            },
          },
          r.label,
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

  private renderDetails(start: number, index: RunIndex): void {
    const session = this.selected ? index.byId.get(this.selected) : undefined;
    replace(
      this.el.details,
      session
        ? renderDetails(session, start, index, this.select)
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
