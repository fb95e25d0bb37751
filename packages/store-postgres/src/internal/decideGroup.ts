import type { Skillbook } from '@cohort/skillbook';
import type { CommitRecord, IdLease, StoreError, StoreNotice } from '@cohort/store';
import type { CommitSequencer } from '@cohort/store/adapter';
import type { GroupItem, ItemResult } from '@cohort/store/adapter';
import { occurrenceId, validLeaseCount } from '@cohort/store/adapter';
import type { GroupRows } from './groupSql.ts';
import { skillRecord } from './rows.ts';

/** A decided group: each item's result (valid once the transaction commits), the rows to write, and the tokens of its commits. */
export interface DecidedGroup {
  readonly results: readonly ItemResult[];
  readonly rows: GroupRows;
  /** The token of the group's first commit row (`null`: nothing to write but leases or log records). */
  readonly token: string | null;
  readonly changed: boolean;
}

/** How the group asks for a lease: granted in the transaction, past `floor`. */
export type GrantLease = (count: number, floor: number, revision: number) => Promise<IdLease>;

/** Who writes the group: the writer's id and the token prefix that tells its commits apart. */
export interface GroupWriterIdentity {
  readonly writerId: string;
  readonly token: string;
  readonly at: number;
  /** The store as notices name it. */
  readonly document: string;
}

/**
 * Decides each item in order against the sequencer (the conflict table, compare-and-set,
 * final and renumbered ids — exactly as the file store decides), granting leases through
 * `grant`, and builds the rows of what was accepted: the commits with their blocks, the
 * skills they touched (each as it is after the group), the ids-remapped notices and one
 * conflict record per commit refused for its conflicts. Nothing is durable until the
 * caller's transaction commits.
 */
export async function decideGroup(
  sequencer: CommitSequencer,
  items: readonly GroupItem[],
  who: GroupWriterIdentity,
  grant: GrantLease,
): Promise<DecidedGroup> {
  const before = sequencer.book;
  const commits: Record<string, unknown>[] = [];
  const blocks: Record<string, unknown>[] = [];
  const log: Record<string, unknown>[] = [];
  const added = new Map<string, readonly [number, number]>();
  const touched = new Set<string>();
  const results: ItemResult[] = [];
  for (const item of items) {
    if (item.kind === 'lease') {
      results.push(await leaseItem(sequencer, item.count, grant));
      continue;
    }
    const { commit } = item;
    const decided = sequencer.apply(commit);
    if (!decided.ok) {
      if (decided.error.code === 'conflict') log.push(conflictRecord(commit, decided.error, who.writerId));
      results.push({ kind: 'append', result: decided });
      continue;
    }
    const revision = decided.book.revision;
    const remapped = decided.idMap.size > 0 ? { idMap: decided.idMap } : {};
    results.push({ kind: 'append', result: { ok: true, revision, book: decided.book, ...remapped } });
    // a commit whose every op changed nothing is acknowledged, not written
    if (decided.blocks.length === 0) continue;
    commits.push({
      revision,
      kind: 'commit',
      writer_id: who.writerId,
      session_id: commit.sessionId,
      path: commit.path,
      at: commit.at,
      token: `${who.token}:${commits.length}`,
      external: null,
    });
    let index = 0;
    decided.blocks.forEach((b, position) => {
      blocks.push({ revision, position, session_id: b.sessionId, path: b.path, name: b.name ?? null, at: b.at, ops: b.ops });
      for (const op of b.ops) {
        touched.add(op.skill_id);
        if (op.type === 'ADD' && !before.has(op.skill_id) && !added.has(op.skill_id)) added.set(op.skill_id, [revision, index]);
        index += 1;
      }
    });
    if (decided.idMap.size > 0) log.push(remapRecord(commit, revision, decided.idMap, who));
  }
  const book = sequencer.book;
  const rows: GroupRows = { commits, blocks, skills: skillRows(book, touched, added), purged: [], log };
  return { results, rows, token: commits.length > 0 ? `${who.token}:0` : null, changed: book !== before };
}

async function leaseItem(sequencer: CommitSequencer, count: number, grant: GrantLease): Promise<ItemResult> {
  if (!validLeaseCount(count))
    return {
      kind: 'lease',
      result: { ok: false, error: { code: 'invalid_request', message: `a lease is 1 to 1,000,000 ids, not ${count}` } },
    };
  const book = sequencer.book;
  const floor = Math.max(book.nextId, sequencer.leaseRecord.through);
  const lease = await grant(count, floor, book.revision);
  sequencer.takeLease(lease);
  return { kind: 'lease', result: { ok: true, lease } };
}

/** The rows of the skills `ids` as they are in `book` (a skill no longer there is not written). */
function skillRows(
  book: Skillbook,
  ids: ReadonlySet<string>,
  added: ReadonlyMap<string, readonly [number, number]>,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const id of ids) {
    const skill = book.get(id);
    const revisions = book.revisionsOf(id);
    if (!skill || !revisions) continue;
    const changedAt = Math.max(revisions.content, revisions.active, revisions.counters);
    out.push(skillRecord(skill, changedAt, added.get(id) ?? [changedAt, 0]));
  }
  return out;
}

function conflictRecord(commit: CommitRecord, error: StoreError, writerId: string): Record<string, unknown> {
  const body = {
    sessionId: commit.sessionId,
    path: commit.path,
    expectedRevision: commit.expectedRevision,
    message: error.message,
    conflicts: error.conflicts ?? [],
  };
  return { kind: 'conflict', type: 'commit.refused', revision: null, session_id: commit.sessionId, writer_id: writerId, body };
}

function remapRecord(
  commit: CommitRecord,
  revision: number,
  idMap: ReadonlyMap<string, string>,
  who: GroupWriterIdentity,
): Record<string, unknown> {
  const body: StoreNotice = {
    type: 'store.ids_remapped',
    id: occurrenceId('ids_remapped', who.document, commit.sessionId, revision),
    at: who.at,
    document: who.document,
    sessionId: commit.sessionId,
    path: [...commit.path],
    revision,
    idMap: Object.fromEntries(idMap),
  };
  return { kind: 'notice', type: 'store.ids_remapped', revision, session_id: commit.sessionId, writer_id: who.writerId, body };
}
