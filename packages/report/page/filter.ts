import type { RunRecord, SessionRecord } from '../src/Recording.ts';
import type { TreeRow } from './model.ts';

/** What the session list is narrowed to: a status (`all`, `live`, `committed`, `failed`) and a text. */
export interface SessionFilter {
  readonly status: string;
  readonly text: string;
}

const searchable = new WeakMap<SessionRecord, string>();

/** Everything a search looks in: id, name, status, failure, ops, and the model and tool calls' text. */
function textOf(session: SessionRecord): string {
  let text = searchable.get(session);
  if (text === undefined) {
    text = [
      session.id,
      session.name ?? '',
      session.status,
      session.failure ? `${session.failure.kind} ${session.failure.message}` : '',
      JSON.stringify(session.landed),
      JSON.stringify(session.modelCalls),
      JSON.stringify(session.toolCalls),
    ]
      .join('\n')
      .toLowerCase();
    searchable.set(session, text);
  }
  return text;
}

/** Whether a session passes the filter on its own. */
export function matches(session: SessionRecord, filter: SessionFilter): boolean {
  if (filter.status === 'live' && (session.status === 'committed' || session.status === 'failed')) return false;
  if (filter.status !== 'all' && filter.status !== 'live' && session.status !== filter.status) return false;
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return words.every((w) => textOf(session).includes(w));
}

/** Whether the filter narrows anything. */
export function isFiltering(filter: SessionFilter): boolean {
  return filter.status !== 'all' || filter.text.trim() !== '';
}

/**
 * The rows that pass the filter, and their ancestors (greyed: `context`) so each match keeps its
 * place in the tree.
 */
export function filterRows(rows: readonly TreeRow[], run: RunRecord, filter: SessionFilter): { rows: TreeRow[]; context: Set<string> } {
  if (!isFiltering(filter)) return { rows: [...rows], context: new Set() };
  const hits = new Set<string>();
  const keep = new Set<string>();
  for (const session of run.sessions) {
    if (!matches(session, filter)) continue;
    hits.add(session.id);
    for (const id of session.path) keep.add(id);
  }
  const context = new Set([...keep].filter((id) => !hits.has(id)));
  return { rows: rows.filter((r) => keep.has(r.session.id)), context };
}

/** The shortest common prefix worth leaving out of every row (a runtime's own random id is 10 characters). */
const MIN_PREFIX = 8;

/**
 * The prefix every session id of a run shares, cut after its last separator (`.`, `-`, `:`,
 * `/`), so rows can show ids without repeating it; empty when it is too short to matter
 * (under {@link MIN_PREFIX} characters: `demo.3` reads better whole than as `…3`).
 */
export function commonIdPrefix(run: RunRecord): string {
  const ids = run.sessions.map((s) => s.id);
  if (ids.length < 2) return '';
  let prefix = ids[0] ?? '';
  for (const id of ids) {
    let n = 0;
    while (n < prefix.length && n < id.length && prefix[n] === id[n]) n++;
    prefix = prefix.slice(0, n);
  }
  const cut = Math.max(...['.', '-', ':', '/'].map((sep) => prefix.lastIndexOf(sep)));
  return cut + 1 >= MIN_PREFIX ? prefix.slice(0, cut + 1) : '';
}

/** An id without the run's common prefix (`…1.3`). */
export function shortId(id: string, prefix: string): string {
  return prefix && id.startsWith(prefix) && id.length > prefix.length ? `…${id.slice(prefix.length)}` : id;
}
