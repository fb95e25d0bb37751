import type { RunRecord, SessionRecord } from '../src/Recording.ts';

/** One visible row of the session tree. */
export interface TreeRow {
  readonly session: SessionRecord;
  readonly depth: number;
  readonly children: number;
  readonly expanded: boolean;
}

/** Counts for the header. */
export interface Counts {
  readonly sessions: number;
  readonly running: number;
  readonly committed: number;
  readonly failed: number;
}

/** A run's sessions indexed by id and by parent (children in spawn order). */
export interface RunIndex {
  readonly byId: ReadonlyMap<string, SessionRecord>;
  readonly children: ReadonlyMap<string | null, readonly SessionRecord[]>;
}

/** Indexes a run's sessions. A session whose parent is unknown is shown as a root. */
export function indexRun(run: RunRecord): RunIndex {
  const byId = new Map<string, SessionRecord>();
  for (const session of run.sessions) byId.set(session.id, session);
  const children = new Map<string | null, SessionRecord[]>();
  for (const session of run.sessions) {
    const parent = session.parentId !== null && byId.has(session.parentId) ? session.parentId : null;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(session);
  }
  return { byId, children };
}

/** The tree's visible rows, depth first in spawn order, skipping collapsed sessions' descendants. */
export function visibleRows(index: RunIndex, collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: { session: SessionRecord; depth: number }[] = [];
  const push = (list: readonly SessionRecord[] | undefined, depth: number): void => {
    if (!list) return;
    for (let i = list.length - 1; i >= 0; i--) stack.push({ session: list[i]!, depth });
  };
  push(index.children.get(null), 0);
  while (stack.length > 0) {
    const { session, depth } = stack.pop()!;
    const kids = index.children.get(session.id);
    const expanded = !collapsed.has(session.id);
    rows.push({ session, depth, children: kids?.length ?? 0, expanded });
    if (expanded) push(kids, depth + 1);
  }
  return rows;
}

/** Sessions by lifecycle status. */
export function countSessions(run: RunRecord): Counts {
  let running = 0;
  let committed = 0;
  let failed = 0;
  for (const s of run.sessions) {
    if (s.status === 'committed') committed += 1;
    else if (s.status === 'failed') failed += 1;
    else running += 1;
  }
  return { sessions: run.sessions.length, running, committed, failed };
}

/** The run's time span: from its first session's spawn to its end, or to the latest time anything happened. */
export function runSpan(run: RunRecord): { start: number; end: number } {
  let end = run.endedAt ?? run.startedAt;
  for (const s of run.sessions) {
    const last = s.endedAt ?? s.states[s.states.length - 1]?.at ?? s.spawnedAt;
    if (last > end) end = last;
  }
  if (run.endedAt === null) for (const n of run.notices) if (n.seenAt > end) end = n.seenAt;
  // the axis starts with the first session: a live view may be opened long before it
  let start = run.sessions.length > 0 ? Infinity : run.startedAt;
  for (const s of run.sessions) if (s.spawnedAt < start) start = s.spawnedAt;
  return { start, end: Math.max(end, start + 1) };
}

/** Every conflict of the run: rejected commits' and dropped ones, with the session they belong to. */
export function conflictsOf(
  run: RunRecord,
): { session: SessionRecord; dropped: boolean; conflict: NonNullable<SessionRecord['rejection']>['conflicts'][number] }[] {
  const out: ReturnType<typeof conflictsOf> = [];
  for (const session of run.sessions) {
    for (const conflict of session.rejection?.conflicts ?? []) out.push({ session, dropped: false, conflict });
    for (const conflict of session.merge?.dropped ?? []) out.push({ session, dropped: true, conflict });
  }
  return out;
}
