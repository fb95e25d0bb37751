/**
 * `@cohort/store`: where the runtime's root Skillbook lives. The {@link Store} interface, the
 * default {@link MemoryStore}, the durable {@link FileStore} (ACE document + journal + ledger),
 * the injectable file system ({@link StoreFs}: {@link nodeFs}, the fault-injecting
 * {@link SimFs}) and the typed notices. The conformance suite is in `@cohort/store/testing`.
 * See docs/persistence.md.
 */
export type {
  AppendResult,
  AuditBlock,
  CommitRecord,
  ExternalChange,
  ExternalReason,
  HistoryOptions,
  HistoryPage,
  IdLease,
  LeaseResult,
  PersistedBlock,
  PersistedCommit,
  RefusedCommit,
  Store,
  StoreError,
  StoreErrorCode,
  StoreSnapshot,
} from './Store.ts';
export { commitOps } from './commitOps.ts';
export { isStoreProgrammerError } from './errors.ts';
export type { StoreProgrammerError, StoreProgrammerErrorCode } from './errors.ts';
export { replayHistory } from './replayHistory.ts';
export type { ReplayedHistory } from './replayHistory.ts';
export { StoreNoticeSchema, ExternalChangesSchema, ForkConflictSchema, LockHolderSchema } from './StoreNotice.ts';
export { ReconcileBaseSchema, SkillSideSchema } from './StoreNotice.ts';
export { MergeBaseSchema } from './StoreNotice.ts';
export type { ExternalChanges, ForkConflict, LockHolder, ReconcileBase, SkillSide, StoreNotice, StoreNoticeType } from './StoreNotice.ts';
export type { MergeBase } from './StoreNotice.ts';
export { inspectCopies } from './inspectCopies.ts';
export type { CopiesInspection, CopySummary } from './inspectCopies.ts';
export { recoverCopy } from './recoverCopy.ts';
export type { RecoverConflict, RecoverError, RecoverResult, RecoveredSkill } from './recoverCopy.ts';
export { MemoryStore } from './MemoryStore.ts';
export type { MemoryStoreOptions } from './MemoryStore.ts';
export { FileStore } from './FileStore.ts';
export type { FileStoreOptions } from './FileStoreOptions.ts';
export { describeOpenError } from './StoreOpenError.ts';
export type { FilePosition, OpenResult, StoreOpenError, StoreOpenErrorCode } from './StoreOpenError.ts';
export { systemStoreClock, sleepOn } from './StoreClock.ts';
export type { StoreClock } from './StoreClock.ts';
export { fsError, fsErrorCode } from './StoreFs.ts';
export type { StoreAppendHandle, StoreFileStat, StoreFs } from './StoreFs.ts';
export { nodeFs } from './nodeFs.ts';
export { SimFs } from './SimFs.ts';
export type { SimCrashOptions, SimMount, SimOp } from './SimFs.ts';
export type { TearPolicy } from './internal/disk/SimDisk.ts';
export type { ProcessIdentity } from './internal/disk/WriterLock.ts';
export { inspectBook } from './inspectBook.ts';
export { repairJournal } from './repairJournal.ts';
export type { CutRecord, JournalRepair, RepairOptions, RepairResult } from './repairJournal.ts';
export type { BookInspection, InspectedBlock, InspectedCommit, InspectionFinding } from './inspectBook.ts';
