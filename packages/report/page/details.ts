import type { ErrorInfo } from '@cohort/runtime';
import type { SessionRecord } from '../src/Recording.ts';
import { renderCalls } from './calls.ts';
import type { ContentMode } from './calls.ts';
import { h } from './dom.ts';
import { shortId } from './filter.ts';
import { duration, label, offset, plural, statusText, workerChain } from './format.ts';
import type { RunIndex } from './model.ts';
import { conflictTable, opsTable } from './tables.ts';

/** How the details are shown: the run's common id prefix, what the recording kept of calls, the session's link. */
export interface DetailsLook {
  readonly prefix: string;
  readonly content: ContentMode;
  readonly link: string;
}

/**
 * The selected session's details (`data-testid="session-details"`): identity and timing, its
 * machine states, its commit and where it merged, the ops of it that reached the book, dropped
 * and rejected conflicts, for a failure its kind, message, cause chain and the ops it discarded,
 * and its model and tool calls.
 */
export function renderDetails(
  session: SessionRecord,
  start: number,
  index: RunIndex,
  select: (id: string) => void,
  look: DetailsLook,
): HTMLElement {
  const parent = session.parentId ? index.byId.get(session.parentId) : undefined;
  return h(
    'section',
    { class: `details status-${session.status}`, 'data-testid': 'session-details', 'data-session': session.id, 'aria-live': 'polite' },
    h(
      'h2',
      {},
      label(session),
      ' ',
      h('span', { class: 'badge' }, statusText(session)),
      ' ',
      h('a', { class: 'permalink', href: look.link, 'data-testid': 'session-link', title: 'a link to this session' }, '#'),
    ),
    facts([
      ['id', session.id],
      ['path', session.path.map((id) => index.byId.get(id)?.name ?? shortId(id, look.prefix)).join(' / ')],
      ['parent', parent ? link(parent, select, look.prefix) : 'none (a root session)'],
      ['attempt', String(session.attempt)],
      ...workerFacts(session, start),
      ['spawned', offset(session.spawnedAt, start)],
      [
        'ended',
        session.endedAt === null
          ? 'still live'
          : `${offset(session.endedAt, start)} (lived ${duration(session.endedAt - session.spawnedAt)})`,
      ],
      ['children', String(index.children.get(session.id)?.length ?? 0)],
      [
        'budget charged',
        session.charged ? `${session.charged.tokens} tokens, ${session.charged.requests} requests` : 'not reported by the runtime',
      ],
    ]),
    h('h3', {}, 'Machine states'),
    h(
      'p',
      { class: 'states' },
      ...session.states.flatMap((st, i) => [
        i > 0 ? ' → ' : '',
        h('span', { 'data-state': st.state }, h('b', {}, st.state), ` ${offset(st.at, start)}`),
      ]),
    ),
    commitPart(session, start, index),
    session.failure ? failurePart(session) : null,
    landedPart(session),
    renderCalls(session, look.content),
  );
}

/** Where a durable tree's session ran and each resume of it; nothing for an in-process session. */
function workerFacts(session: SessionRecord, start: number): [string, Node | string][] {
  if (!session.worker) return [];
  const rows: [string, Node | string][] = [['worker', h('span', { 'data-testid': 'session-worker' }, workerChain(session) ?? '')]];
  for (const r of session.resumes ?? []) {
    const from = r.previous ? ` (after ${r.previous})` : '';
    rows.push([
      'resumed',
      h('span', { 'data-testid': 'session-resume' }, `start ${r.start} on ${r.worker}${from}, ${offset(r.at, start)}`),
    ]);
  }
  return rows;
}

function commitPart(session: SessionRecord, start: number, index: RunIndex): HTMLElement {
  const parts: (HTMLElement | string)[] = [];
  if (session.commit) {
    const base =
      session.parentId === null
        ? `on book revision ${session.commit.baseRevision}`
        : `on step ${session.commit.baseRevision} of its parent's draft`;
    parts.push(
      h(
        'p',
        {},
        `Committed ${plural(session.commit.ops, 'op')} (its own and merged descendants') ${base}, at ${offset(session.commit.at, start)}.`,
      ),
    );
  }
  if (session.merge) {
    const into =
      session.merge.into === 'root'
        ? `the book at revision ${session.merge.revision}`
        : `the draft of ${index.byId.get(session.merge.into)?.name ?? session.merge.into} (${session.merge.into}) at its step ${session.merge.revision}`;
    parts.push(h('p', { class: 'merged' }, `Merged into ${into}: ${plural(session.merge.ops, 'op')}.`));
    const owner = index.byId.get(session.merge.into);
    if (owner?.failure)
      parts.push(h('p', { class: 'discarded' }, `Its work was discarded with ${label(owner)}, which failed (${owner.failure.kind}).`));
    if (session.merge.dropped.length > 0)
      parts.push(h('h4', {}, 'Dropped conflicts'), conflictTable(session.merge.dropped, session.parentId === null));
  }
  if (session.rejection)
    parts.push(h('h4', {}, 'Rejected: conflicts'), conflictTable(session.rejection.conflicts, session.parentId === null));
  if (parts.length === 0) parts.push(h('p', { class: 'muted' }, session.endedAt === null ? 'Not committed yet.' : 'It never committed.'));
  return h('div', { class: 'commit' }, h('h3', {}, 'Commit'), ...parts);
}

function failurePart(session: SessionRecord): HTMLElement {
  const f = session.failure!;
  return h(
    'div',
    { class: 'failure' },
    h('h3', {}, 'Failure'),
    facts([
      ['kind', h('code', { 'data-testid': 'failure-kind' }, f.kind)],
      ['message', h('span', { 'data-testid': 'failure-message' }, f.message)],
      ['discarded', `${plural(f.discarded.ops, 'op')}, ${plural(f.discarded.descendants, 'descendant')}`],
      ['attempt', String(f.attempt)],
    ]),
    f.error ? h('h4', {}, 'Cause chain') : null,
    f.error ? causeChain(f.error) : null,
    f.conflicts && f.conflicts.length > 0 ? conflictTable(f.conflicts, session.parentId === null) : null,
    discardedPart(session),
  );
}

function discardedPart(session: SessionRecord): HTMLElement | null {
  const ops = session.discardedOps;
  if (ops.length === 0) return null;
  const all = session.failure?.discarded.ops ?? ops.length;
  const title = all > ops.length ? `Discarded ops (the first ${ops.length} of ${all})` : 'Discarded ops';
  return h('div', { class: 'discarded-ops', 'data-testid': 'discarded-ops' }, h('h4', {}, title), opsTable(ops));
}

function causeChain(error: ErrorInfo): HTMLElement {
  const items: HTMLElement[] = [];
  for (let e: ErrorInfo | undefined = error; e; e = e.cause) {
    items.push(
      h(
        'li',
        {},
        h('b', {}, e.name),
        e.code ? ` [${e.code}]` : '',
        `: ${e.message}`,
        e.stack ? h('details', {}, h('summary', {}, 'stack'), h('pre', {}, e.stack)) : null,
      ),
    );
  }
  return h('ol', { class: 'causes', 'data-testid': 'cause-chain' }, ...items);
}

function landedPart(session: SessionRecord): HTMLElement | null {
  if (session.landed.length === 0) return null;
  return h(
    'div',
    { class: 'landed' },
    h('h3', {}, 'Ops in the book'),
    ...session.landed.map((entry) => h('div', {}, h('p', {}, `At book revision ${entry.revision}:`), opsTable(entry.ops))),
  );
}

function facts(rows: [string, Node | string][]): HTMLElement {
  return h('dl', { class: 'facts' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

function link(session: SessionRecord, select: (id: string) => void, prefix: string): HTMLElement {
  return h(
    'a',
    {
      href: `#session=${encodeURIComponent(session.id)}`,
      onclick: (e) => {
        e.preventDefault();
        select(session.id);
      },
    },
    session.name ? `${session.name} (${shortId(session.id, prefix)})` : shortId(session.id, prefix),
  );
}
