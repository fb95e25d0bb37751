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

/** One side of a conflict: the skill as that side has it. */
export const SkillSideSchema = z.object({
  issue: z.string(),
  insight: z.string().nullable(),
  keywords: z.array(z.string()),
  active: z.boolean(),
  updatedAt: z.string(),
});
/** See {@link SkillSideSchema}. */
export type SkillSide = z.infer<typeof SkillSideSchema>;

/**
 * A real conflict between another writer's document and the live book: the same skill changed
 * on both sides. The live book's side stays; the other writer's is kept in the recovery copy.
 */
export const ForkConflictSchema = z.object({
  /** The skill's id in the live book. */
  skillId: z.string(),
  /** What the other writer did: changed the skill's content (`UPDATE`), or retired or deleted it (`REMOVE`). */
  type: z.enum(['UPDATE', 'REMOVE']),
  /**
   * `content_changed`: Cohort changed its content since the version the writer started from;
   * `removed`: Cohort removed it; `no_base`: that version is unknown and the writer's is newer.
   */
  reason: z.enum(['content_changed', 'removed', 'no_base']),
  /** The other writer's version (`null`: deleted from its document). */
  theirs: SkillSideSchema.nullable(),
  /** The live book's version, which stays (`null`: not in the live book). */
  ours: SkillSideSchema.nullable(),
  /** The Cohort session whose acknowledged commit last changed the skill, when the journal past the document names one. */
  sessionId: z.string().nullable(),
});
/** See {@link ForkConflictSchema}. */
export type ForkConflict = z.infer<typeof ForkConflictSchema>;

/**
 * The version another writer's document was reconciled against: one this store wrote
 * (`cohort`), one the writer saved before (`external`), or none found (`none`: reconciled
 * conservatively — nothing deleted or undone, its differing newer versions kept as conflicts).
 */
export const ReconcileBaseSchema = z.object({
  source: z.enum(['cohort', 'external', 'none']),
  /** The store's revision when that version was written or taken in. */
  revision: z.number().int().nullable(),
  /** sha256 of that version's document. */
  digest: z.string().nullable(),
});
/** See {@link ReconcileBaseSchema}. */
export type ReconcileBase = z.infer<typeof ReconcileBaseSchema>;
/** @deprecated The same schema as {@link ReconcileBaseSchema}, under its former name. */
export const MergeBaseSchema = ReconcileBaseSchema;
/** @deprecated The same type as {@link ReconcileBase}, under its former name. */
export type MergeBase = ReconcileBase;

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
  /** Acknowledged commits of ours past the document that the new document holds (all of them). */
  rebased: z.number().int(),
  /** The other writer's skills that were given new ids (their id → the id in the book). */
  idMap,
  external: ExternalChangesSchema,
  /** For another program's document: the version it was reconciled against (`null` or absent for another Cohort writer's work). */
  base: ReconcileBaseSchema.nullable().optional(),
  /** Real conflicts: the skills both sides changed (the live side stays); absent where none can be (another Cohort writer's work). */
  conflicts: z.array(ForkConflictSchema).optional(),
};

const forkFields = {
  ...reconciled,
  /** The recovery copy holding the other writer's side of the conflicts (an ACE document). */
  copy: z.string(),
  depth: z.number().int(),
  /** The copy this one descends from, if any. */
  parent: z.string().nullable(),
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
