import { z } from 'zod';

const base = {
  /** Identifies the occurrence: the same occurrence never produces a second notice or log record. */
  id: z.string(),
  /** Store clock time, in ms. */
  at: z.number(),
  /** The Skillbook document the store keeps. */
  document: z.string(),
};

/** Up to 50 skill ids per list (the `counts` are exact). */
export const ExternalChangesSchema = z.object({
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
  dropped: z.array(z.string()),
  counts: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), dropped: z.number().int() }),
});
/** What another writer changed in the document, relative to the store's baseline: new skills, content changes, soft removals, skills deleted outright. */
export type ExternalChanges = z.infer<typeof ExternalChangesSchema>;

/** One op of an acknowledged commit that could not be re-applied on top of another writer's document. */
export const ForkConflictSchema = z.object({
  revision: z.number().int(),
  sessionId: z.string(),
  path: z.array(z.string()),
  opIndex: z.number().int(),
  type: z.enum(['ADD', 'UPDATE', 'TAG', 'REMOVE']),
  skillId: z.string(),
  reason: z.enum(['content_changed', 'removed', 'id_exists']),
});
/** See {@link ForkConflictSchema}. */
export type ForkConflict = z.infer<typeof ForkConflictSchema>;

/** Who held the writer lock. */
export const LockHolderSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  writerId: z.string(),
  generation: z.number().int(),
  acquiredAt: z.number(),
  leaseMs: z.number(),
});
/** See {@link LockHolderSchema}. */
export type LockHolder = z.infer<typeof LockHolderSchema>;

const idMap = z.record(z.string(), z.string());

const reconciled = {
  ...base,
  /** The store's revision after the outcome. */
  revision: z.number().int(),
  /** The store's revision before it. */
  fromRevision: z.number().int(),
  /** sha256 of the document as the other writer left it. */
  diskDigest: z.string(),
  /** Acknowledged commits of ours re-applied on top of the other writer's document. */
  rebased: z.number().int(),
  /** Ids of our acknowledged ADDs that another writer had taken meanwhile, and what they became. */
  idMap,
  external: ExternalChangesSchema,
};

const forkFields = {
  ...reconciled,
  /** The recovery copy holding our side (an ACE document). */
  copy: z.string(),
  depth: z.number().int(),
  /** The copy this one descends from, if any. */
  parent: z.string().nullable(),
  /** Our acknowledged ops that conflict with the other writer's document (kept in `copy`). */
  conflicts: z.array(ForkConflictSchema),
};

/**
 * The typed notices a store emits on `notices$` (and the runtime on `rt.events$`), once per
 * occurrence. Every notice except `store.saved` is also one record in the conflict log
 * beside the document. docs/persistence.md says what an operator does about each.
 */
export const StoreNoticeSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('store.saved'),
    ...base,
    revision: z.number().int(),
    digest: z.string(),
    reason: z.enum(['created', 'threshold', 'idle', 'close', 'reconciled', 'recovered']),
    /** Journal entries folded into the document by this save. */
    entries: z.number().int(),
  }),
  z.object({
    type: z.literal('store.adopted'),
    ...reconciled,
    /** `cohort`: another Cohort process (journal or checkpoint); `external`: ACE, an editor, a person. */
    source: z.enum(['cohort', 'external']),
    writerId: z.string().nullable(),
    /** Commits of other Cohort writers taken in. */
    commits: z.number().int(),
  }),
  z.object({ type: z.literal('store.rebased'), ...reconciled }),
  z.object({ type: z.literal('store.forked'), ...forkFields, deduped: z.boolean() }),
  z.object({
    type: z.literal('store.force_saved'),
    ...forkFields,
    /** sha256 of the fixed-point copy's previous content, if it existed. */
    replacedDigest: z.string().nullable(),
    /** Skills of the previous fixed-point copy carried into the new one. */
    carried: z.number().int(),
  }),
  z.object({
    type: z.literal('store.torn_tail_cut'),
    ...base,
    file: z.string(),
    offset: z.number().int(),
    bytes: z.number().int(),
    reason: z.enum(['incomplete_line', 'bad_checksum', 'invalid_line', 'broken_group', 'interrupted_checkpoint']),
  }),
  z.object({
    type: z.literal('store.lock_taken_over'),
    ...base,
    lockFile: z.string(),
    previous: LockHolderSchema,
    generation: z.number().int(),
    reason: z.enum(['dead_process', 'lease_expired']),
  }),
  z.object({
    type: z.literal('store.ids_remapped'),
    ...base,
    sessionId: z.string(),
    path: z.array(z.string()),
    revision: z.number().int(),
    idMap,
  }),
  z.object({
    type: z.literal('store.document_unreadable'),
    ...base,
    file: z.string(),
    digest: z.string(),
    message: z.string(),
  }),
  z.object({
    type: z.literal('store.io_failed'),
    ...base,
    operation: z.string(),
    file: z.string(),
    message: z.string(),
    /** Commits refused because of it (none of them is in the store). */
    refused: z.number().int(),
    /** The store refuses every further append until it is reopened. */
    poisoned: z.boolean(),
  }),
]);

/** A typed store notice; see {@link StoreNoticeSchema}. */
export type StoreNotice = z.infer<typeof StoreNoticeSchema>;

/** The `type` of every notice. */
export type StoreNoticeType = StoreNotice['type'];
