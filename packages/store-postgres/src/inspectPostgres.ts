import type { AppliedOp } from '@cohort/skillbook';
import { replayHistory } from '@cohort/store';
import type { BookInspection, InspectedCommit, InspectionFinding, PersistedCommit } from '@cohort/store';
import { PostgresStore } from './PostgresStore.ts';
import type { PostgresStoreOptions } from './PostgresStoreOptions.ts';

const opText = (op: AppliedOp): string => `${op.type} ${op.skill_id}`;

function inspected(c: PersistedCommit, line: number): InspectedCommit {
  const base = { revision: c.revision, at: c.at, writer: c.writerId, inDocument: true, line, offset: 0 };
  if (c.kind === 'commit') {
    const blocks = c.entries.map((b) => ({
      sessionId: b.sessionId,
      path: b.path,
      ...(b.name === undefined ? {} : { name: b.name }),
      ops: b.ops.map(opText),
    }));
    return { kind: 'commit', ...base, sessionId: c.sessionId, path: c.path, blocks, ops: blocks.flatMap((b) => b.ops) };
  }
  const x = c.external;
  const what = x
    ? `${x.reason}: ${x.skills.length} skill${x.skills.length === 1 ? '' : 's'}${x.purged.length > 0 ? `, ${x.purged.length} deleted` : ''}`
    : 'external';
  return { kind: 'external', ...base, sessionId: c.sessionId, path: c.path, blocks: [], ops: [what] };
}

/** Every commit of the store, a page at a time. */
async function allCommits(store: PostgresStore): Promise<PersistedCommit[] | string> {
  const out: PersistedCommit[] = [];
  for (let after = -1; ; ) {
    const page = await store.history({ after, limit: 1_000 });
    if (!page.ok) return page.error.message;
    out.push(...page.commits);
    if (page.next === null) return out;
    after = page.next;
  }
}

/**
 * A read-only look at a PostgreSQL store, in the shape `cohort book` shows for a file store:
 * the book, every commit with its sessions' blocks, the notices of its log table, and an
 * integrity check (replaying the commits table from the empty book must give the skills
 * table's book). Writes nothing but the migrations an older store lacks (opening applies
 * them); a store that does not exist is not created. One it cannot open is a `damage` finding.
 *
 * @example
 * ```ts
 * const report = await inspectPostgres({ url: 'postgres://postgres@127.0.0.1:5432/test?schema=cohort' });
 * if (!report.ok) for (const f of report.findings) console.error(f.code, f.message);
 * ```
 */
export async function inspectPostgres(options: PostgresStoreOptions): Promise<BookInspection> {
  const opened = await PostgresStore.open({ ...options, create: false, listen: false });
  const empty = {
    ledger: null,
    journal: { bytes: 0, commits: 0, marks: 0, pastDocument: 0 },
    entries: [],
    recoveryCopies: [],
    conflictLog: [],
    lock: null,
  };
  if (!opened.ok) {
    const e = opened.error;
    return {
      document: e.file,
      ok: false,
      book: null,
      ...empty,
      findings: [{ severity: 'damage', code: e.code, message: e.message, file: e.file }],
    };
  }
  const store = opened.store;
  try {
    const document = store.url;
    const findings: InspectionFinding[] = [];
    const commits = await allCommits(store);
    const book = store.book;
    if (typeof commits === 'string') {
      findings.push({ severity: 'damage', code: 'io', message: commits, file: document });
      return { document, ok: false, book, ...empty, findings };
    }
    const replayed = replayHistory(commits);
    if (!replayed.ok)
      findings.push({
        severity: 'damage',
        code: 'history_mismatch',
        message: `the commits do not replay at revision ${replayed.revision}: ${replayed.message}`,
        file: document,
      });
    else if (replayed.book.reserveIds(book.nextId).toJSON() !== book.toJSON()) {
      findings.push({
        severity: 'damage',
        code: 'history_mismatch',
        message: 'replaying the commits table does not give the skills table',
        file: document,
      });
    }
    const entries = commits.map((c, i) => inspected(c, i + 1));
    const count = entries.filter((e) => e.kind === 'commit').length;
    return {
      document,
      ok: findings.length === 0,
      book,
      ...empty,
      entries,
      journal: { bytes: 0, commits: count, marks: 0, pastDocument: 0 },
      conflictLog: await store.loggedNotices(),
      refusedCommits: await store.refusedCommits(),
      findings,
    };
  } finally {
    await store.close();
  }
}
