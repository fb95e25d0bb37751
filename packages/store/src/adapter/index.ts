/**
 * `@cohort/store/adapter`: the parts every store shares, for a store kept elsewhere (a
 * database): the {@link CommitSequencer} that decides appends exactly as the memory and file
 * stores decide them (the base of a commit, the conflict table since it, final and renumbered
 * ids, leases), the {@link ResyncWindow} that ends a speculative client's divergence, the
 * history record of what a store was created with, the {@link GroupCommitQueue} that gathers
 * appends and leases into one durable write, the defaults of the options every store takes
 * ({@link resolveSharedOptions}), and a {@link DelegatingStore} to wrap a store in (metrics,
 * fault injection) overriding only what the wrapper changes.
 *
 * @example
 * ```ts
 * import { Skillbook } from '@cohort/skillbook';
 * import { CommitSequencer } from '@cohort/store/adapter';
 *
 * const sequencer = new CommitSequencer(Skillbook.empty());
 * const before = sequencer.state;
 * // decide a group of appends with sequencer.apply(commit); when they cannot be made durable:
 * sequencer.restore(before);
 * ```
 */
export { CommitSequencer } from '../internal/sequencing/CommitSequencer.ts';
export type { SequencedCommit, SequencerState } from '../internal/sequencing/CommitSequencer.ts';
export { GroupCommitQueue, itemRefusal } from '../internal/sequencing/GroupCommitQueue.ts';
export type { GroupItem, ItemResult, QueuedItem, WriteGroup } from '../internal/sequencing/GroupCommitQueue.ts';
export { ResyncWindow } from '../internal/sequencing/ResyncWindow.ts';
export type { LeaseRecord } from '../internal/sequencing/IdLeases.ts';
export { validLeaseCount } from '../internal/sequencing/IdLeases.ts';
export { EXTERNAL_SESSION, createdCommit } from '../internal/journal/persistedCommit.ts';
export { occurrenceId } from '../internal/disk/digest.ts';
export { DEFAULT_HISTORY_LIMIT } from '../internal/journal/HistoryReader.ts';
export { DelegatingStore } from '../DelegatingStore.ts';
export { resolveSharedOptions } from '../internal/resolveSharedOptions.ts';
export type { ResolvedSharedOptions, SharedStoreOptions } from '../internal/resolveSharedOptions.ts';
