import type { AppliedOp, Skillbook } from '@cohort/skillbook';
import type { PersistedCommit, StoreNotice } from '@cohort/store';
import type { EpochRecord } from '../EpochRecord.ts';
import type { RunObservations } from '../runScenario.ts';

/** A change the store took in from another program, at the revision it produced. */
export interface TakenIn {
  readonly revision: number;
  readonly commit: PersistedCommit;
}

/**
 * The changes another program made that the store took in while epoch `index` (0-based) ran:
 * the external records of the next reopen's history past the epoch's initial revision, up to
 * its runtime's final revision. Empty in runs without another program.
 */
export function takenInDuring(observations: RunObservations, index: number): TakenIn[] {
  const record = observations.epochs[index];
  const history = observations.reopens[index]?.history;
  const last = record?.final?.book.revision;
  if (!record || !history || last === undefined) return [];
  return history
    .filter(
      (c) =>
        c.kind === 'external' &&
        c.external &&
        c.external.reason !== 'created' &&
        c.revision > record.initial.revision &&
        c.revision <= last,
    )
    .map((commit) => ({ revision: commit.revision, commit }));
}

/** `book` with an external record taken in, as the store did. */
export function takeIn(book: Skillbook, commit: PersistedCommit): Skillbook {
  const change = commit.external;
  if (!change) return book;
  return book.adopt({ skills: change.skills, purged: change.purged, nextId: change.nextId }, { revision: commit.revision });
}

/** The ids the store gave a session's ADDs (another program had taken them), from its `store.ids_remapped` notices. */
export function remapsOf(record: EpochRecord): Map<string, ReadonlyMap<string, string>> {
  const out = new Map<string, ReadonlyMap<string, string>>();
  for (const { event } of record.events) {
    if (event.type !== 'store.ids_remapped' || event.sessionId === 'external') continue;
    const notice = event as Extract<StoreNotice, { type: 'store.ids_remapped' }>;
    out.set(`${notice.sessionId}\u0000${notice.revision}`, new Map(Object.entries(notice.idMap)));
  }
  return out;
}

/** `ops` with the ids the store gave them. */
export function remapOps(ops: readonly AppliedOp[], idMap: ReadonlyMap<string, string> | undefined): readonly AppliedOp[] {
  if (!idMap || idMap.size === 0) return ops;
  return ops.map((op) => {
    const to = idMap.get(op.skill_id);
    return to === undefined ? op : { ...op, skill_id: to };
  });
}

/**
 * Replays audit entries (each with the revision its commit produced) on `book`, the changes
 * taken in from another program interleaved at their revisions: what the runtime's audit must
 * give in a run where another program saved the document.
 */
export function replayWithTakenIn(
  book: Skillbook,
  audit: readonly { readonly ops: readonly AppliedOp[]; readonly revision: number }[],
  takenIn: readonly TakenIn[],
): { ok: true; book: Skillbook } | { ok: false; message: string } {
  let current = book;
  const external = [...takenIn];
  for (const entry of audit) {
    while (external[0] && external[0].revision < entry.revision) current = takeIn(current, (external.shift() as TakenIn).commit);
    if (entry.ops.length === 0) continue;
    const r = current.replay(entry.ops);
    if (!r.ok) return { ok: false, message: r.error.message };
    current = r.book;
  }
  for (const rest of external) current = takeIn(current, rest.commit);
  return { ok: true, book: current };
}
