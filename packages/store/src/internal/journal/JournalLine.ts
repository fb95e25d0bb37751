/**
 * The journal's lines. Each write appends one group: a header line that says how many lines
 * and bytes follow, then the records — commits, external changes taken in, id leases — each
 * with its own checksum, chained by digest to the state it was applied to. The header tells
 * the last write from the ones before it: damage inside the last group is a torn write (cut);
 * damage anywhere else is corruption. Lines of the first format (`v: 1`: a commit with flat
 * ops, a mark) are still read; nothing writes them.
 *
 * This file holds what a record is (its schema and type); how a line is written and read back
 * — its checksum, its text — is `lineCodec.ts`.
 */
import { z } from 'zod';
import type { AppliedOp, PlainSkill } from '@cohort/skillbook';

/** An insight source as a journal line stores it. */
export const InsightSourceSchema = z.object({
  trace_uid: z.string(),
  source_system: z.string(),
  trace_id: z.string(),
  display_name: z.string().exactOptional(),
  relation: z.string().exactOptional(),
  sample_question: z.string().exactOptional(),
  epoch: z.number().int().exactOptional(),
  operation_type: z.string().exactOptional(),
  error_identification: z.string().exactOptional(),
  learning_text: z.string().exactOptional(),
});

/** An applied op as a journal line stores it (ACE operation JSON plus `at`). */
export const AppliedOpSchema = z.object({
  type: z.enum(['ADD', 'UPDATE', 'TAG', 'REMOVE']),
  section: z.string(),
  skill_id: z.string(),
  issue: z.string().exactOptional(),
  keywords: z.array(z.string()).exactOptional(),
  insight: z.string().exactOptional(),
  metadata: z.record(z.string(), z.number()).exactOptional(),
  insight_source: z.array(InsightSourceSchema).exactOptional(),
  reason: z.string().exactOptional(),
  at: z.string(),
});

/** A skill as an external record stores it (ACE's document fields). */
export const SkillRecordSchema = z.object({
  id: z.string().min(1),
  section: z.string(),
  keywords: z.array(z.string()),
  issue: z.string(),
  insight: z.string().exactOptional(),
  occurrences: z.array(InsightSourceSchema),
  active: z.boolean(),
  used_count: z.number().int(),
  helpful_count: z.number().int(),
  harmful_count: z.number().int(),
  neutral_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The fields every chained record starts with: its revision, the chain digest of the state it applies to, the writer. */
const chained = {
  rev: z.number().int().nonnegative(),
  prev: z.string(),
  writer: z.string(),
};

/**
 * One session's block of a commit. `session`, `path` and `at` are left out when they are the
 * commit's own (a root session's own writes: the usual block, written short).
 */
export const BlockLineSchema = z.object({
  session: z.string().exactOptional(),
  path: z.array(z.string()).exactOptional(),
  name: z.string().exactOptional(),
  at: z.number().exactOptional(),
  ops: z.array(AppliedOpSchema),
});
/** See {@link BlockLineSchema}. */
export type BlockLine = Omit<z.infer<typeof BlockLineSchema>, 'ops' | 'path'> & {
  readonly path?: readonly string[];
  readonly ops: readonly AppliedOp[];
};

/** A block with every field, the commit's filled in where the line leaves them out. */
export interface FullBlock {
  readonly session: string;
  readonly path: readonly string[];
  readonly name?: string;
  readonly at: number;
  readonly ops: readonly AppliedOp[];
}

/** A root's commit, sequenced: its revision, the chain digest of the state it was applied to, who, and its blocks. */
export const CommitLineSchema = z.object({
  v: z.literal(2),
  t: z.literal('commit'),
  ...chained,
  session: z.string(),
  path: z.array(z.string()),
  at: z.number(),
  blocks: z.array(BlockLineSchema),
});
/** See {@link CommitLineSchema}. */
export type CommitLine = Omit<z.infer<typeof CommitLineSchema>, 'blocks'> & { readonly blocks: readonly BlockLine[] };

/**
 * Another program's document as it saved it, in its own ids: its digest, the version it was
 * reconciled against (`null`: none was known), and its skills as a change against that version's
 * book — or, without one, against the book the record applies to. What it takes to rebuild the
 * document later, as the base of the same program's next save.
 */
export const TheirsSchema = z.object({
  digest: z.string(),
  base: z.object({ source: z.enum(['cohort', 'external']), rev: z.number().int().nonnegative(), digest: z.string().nullable() }).nullable(),
  skills: z.array(SkillRecordSchema),
  purged: z.array(z.string()),
  next: z.number().int().nonnegative(),
});
/** See {@link TheirsSchema}. */
export type Theirs = Omit<z.infer<typeof TheirsSchema>, 'skills' | 'purged'> & {
  readonly skills: readonly PlainSkill[];
  readonly purged: readonly string[];
};

/** Changes taken in that did not arrive as ops (see `ExternalChange`), and the document digest they came with. */
export const ExternalLineSchema = z.object({
  v: z.literal(2),
  t: z.literal('external'),
  ...chained,
  reason: z.enum(['adopted', 'rebased', 'forked', 'force_saved']),
  digest: z.string(),
  notice: z.string(),
  at: z.number(),
  next: z.number().int().nonnegative(),
  skills: z.array(SkillRecordSchema),
  purged: z.array(z.string()),
  renumbered: z.array(z.tuple([z.string(), z.string()])),
  theirs: TheirsSchema.exactOptional(),
});
/** See {@link ExternalLineSchema}. */
export type ExternalLine = Omit<z.infer<typeof ExternalLineSchema>, 'skills' | 'purged' | 'renumbered' | 'theirs'> & {
  readonly skills: readonly PlainSkill[];
  readonly purged: readonly string[];
  readonly renumbered: readonly (readonly [string, string])[];
  readonly theirs?: Theirs;
};

/** An id lease granted at revision `rev`: numbers `[from, to)`. */
export const LeaseLineSchema = z.object({
  v: z.literal(2),
  t: z.literal('lease'),
  ...chained,
  from: z.number().int().positive(),
  to: z.number().int().positive(),
  at: z.number(),
});
/** See {@link LeaseLineSchema}. */
export type LeaseLine = z.infer<typeof LeaseLineSchema>;

/** The header of one write: `lines` records follow, `bytes` long together. */
export const GroupLineSchema = z.object({
  v: z.literal(2),
  t: z.literal('group'),
  lines: z.number().int().positive(),
  bytes: z.number().int().positive(),
});
/** See {@link GroupLineSchema}. */
export type GroupLine = z.infer<typeof GroupLineSchema>;

/** A commit of the first format: flat ops attributed to the root session. */
export const CommitLineV1Schema = z.object({
  v: z.literal(1),
  t: z.literal('commit'),
  ...chained,
  session: z.string(),
  path: z.array(z.string()),
  ops: z.array(AppliedOpSchema),
  at: z.number(),
});
/** See {@link CommitLineV1Schema}. */
export type CommitLineV1 = Omit<z.infer<typeof CommitLineV1Schema>, 'ops'> & { readonly ops: readonly AppliedOp[] };

/** An audit mark of the first format: the document was re-based at `rev`; its content is not recorded. */
export const MarkLineSchema = z.object({
  v: z.literal(1),
  t: z.literal('mark'),
  rev: z.number().int().nonnegative(),
  writer: z.string(),
  reason: z.enum(['adopted', 'rebased', 'forked', 'force_saved']),
  digest: z.string(),
  notice: z.string(),
  at: z.number(),
});
/** See {@link MarkLineSchema}. */
export type MarkLine = z.infer<typeof MarkLineSchema>;

/** A record line: what a group holds (and, in the first format, what stands alone). */
export type RecordLine = CommitLine | ExternalLine | LeaseLine | CommitLineV1 | MarkLine;

/** Any journal line. */
export type JournalLine = RecordLine | GroupLine;

/** Any journal line, as read. */
export const LineSchema = z.union([
  CommitLineSchema,
  ExternalLineSchema,
  LeaseLineSchema,
  GroupLineSchema,
  CommitLineV1Schema,
  MarkLineSchema,
]);

/** The ops of a commit line of either format, in order (a line of one block gives that block's own list). */
export function opsOfLine(line: CommitLine | CommitLineV1): readonly AppliedOp[] {
  if (line.v === 1) return line.ops;
  if (line.blocks.length === 1) return line.blocks[0]?.ops ?? [];
  return line.blocks.flatMap((b) => b.ops);
}

/** The blocks of a commit line of either format, whole (a first-format commit is one block of its root session). */
export function blocksOf(line: CommitLine | CommitLineV1): readonly FullBlock[] {
  if (line.v === 1) return [{ session: line.session, path: line.path, at: line.at, ops: line.ops }];
  return line.blocks.map((b) => ({
    session: b.session ?? line.session,
    path: b.path ?? line.path,
    ...(b.name === undefined ? {} : { name: b.name }),
    at: b.at ?? line.at,
    ops: b.ops,
  }));
}

/** A block as a commit line writes it: the fields that are the commit's own left out. */
export function blockLine(
  block: FullBlock,
  commit: { readonly session: string; readonly path: readonly string[]; readonly at: number },
): BlockLine {
  const samePath = block.path.length === commit.path.length && block.path.every((p, i) => p === commit.path[i]);
  return {
    ...(block.session === commit.session ? {} : { session: block.session }),
    ...(samePath ? {} : { path: [...block.path] }),
    ...(block.name === undefined ? {} : { name: block.name }),
    ...(block.at === commit.at ? {} : { at: block.at }),
    ops: block.ops,
  };
}
