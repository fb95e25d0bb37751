import type { AppliedOp, PlainSkill, Skill } from '@cohort/skillbook';
import type { ExternalChange, PersistedBlock, PersistedCommit } from '@cohort/store';

/** A row of the `skills` table as node-postgres returns it: a skill's fields, `insight` as a nullable column. */
export type SkillRow = Omit<PlainSkill, 'insight' | 'keywords'> & { readonly insight: string | null; readonly keywords: string[] };

/** The columns of a skill row, in the order {@link SkillRow} lists them. */
export const SKILL_COLUMNS =
  'id, section, issue, insight, keywords, occurrences, active, used_count, helpful_count, harmful_count, neutral_count, created_at, updated_at';

/** A skill as the book holds it, from its row. */
export function skillOfRow(row: SkillRow): PlainSkill {
  return {
    id: row.id,
    section: row.section,
    keywords: row.keywords,
    issue: row.issue,
    ...(row.insight === null ? {} : { insight: row.insight }),
    occurrences: row.occurrences,
    active: row.active,
    used_count: row.used_count,
    helpful_count: row.helpful_count,
    harmful_count: row.harmful_count,
    neutral_count: row.neutral_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A skill as the group write sends it (JSON; `added` places a new skill in document order). */
export function skillRecord(skill: Skill, revision: number, added: readonly [number, number]): Record<string, unknown> {
  return {
    id: skill.id,
    section: skill.section,
    issue: skill.issue,
    insight: skill.insight ?? null,
    keywords: skill.keywords,
    occurrences: skill.occurrences,
    active: skill.active,
    used_count: skill.used_count,
    helpful_count: skill.helpful_count,
    harmful_count: skill.harmful_count,
    neutral_count: skill.neutral_count,
    created_at: skill.created_at,
    updated_at: skill.updated_at,
    revision,
    added_revision: added[0],
    added_index: added[1],
  };
}

/** A row of the history query: a commit with its blocks. */
export interface CommitRow {
  readonly revision: string;
  readonly kind: 'commit' | 'external';
  readonly writer_id: string;
  readonly session_id: string;
  readonly path: string[];
  readonly at: string;
  readonly external: SerialisedExternal | null;
  readonly blocks: BlockRow[] | null;
}

/** An audit block as the history query returns it (numbers as JSON numbers). */
export interface BlockRow {
  readonly session_id: string;
  readonly path: string[];
  readonly name: string | null;
  readonly at: number;
  readonly ops: AppliedOp[];
}

/** An {@link ExternalChange} as stored (its `renumbered` map as pairs). */
export interface SerialisedExternal {
  readonly reason: ExternalChange['reason'];
  readonly skills: PlainSkill[];
  readonly purged: string[];
  readonly nextId: number;
  readonly renumbered: [string, string][];
}

/** An external change as stored. */
export function serialiseExternal(change: ExternalChange): SerialisedExternal {
  return {
    reason: change.reason,
    skills: [...change.skills],
    purged: [...change.purged],
    nextId: change.nextId,
    renumbered: [...change.renumbered],
  };
}

/** The history query's SELECT list and joins, for commits past `$1` (at most `$2`). */
export const HISTORY_SQL = `
  SELECT c.revision, c.kind, c.writer_id, c.session_id, c.path, c.at, c.external,
    (SELECT json_agg(json_build_object('session_id', b.session_id, 'path', b.path, 'name', b.name, 'at', b.at, 'ops', b.ops) ORDER BY b.position)
       FROM {schema}.audit_blocks b WHERE b.revision = c.revision) AS blocks
  FROM {schema}.commits c WHERE c.revision > $1 ORDER BY c.revision LIMIT $2`;

/** A persisted commit from its row. */
export function commitOfRow(row: CommitRow): PersistedCommit {
  const revision = Number(row.revision);
  const entries = (row.blocks ?? []).map(
    (b): PersistedBlock => ({
      sessionId: b.session_id,
      path: b.path,
      ...(b.name === null ? {} : { name: b.name }),
      ops: b.ops,
      at: Number(b.at),
      revision,
    }),
  );
  const base = {
    kind: row.kind,
    revision,
    writerId: row.writer_id,
    sessionId: row.session_id,
    path: row.path,
    at: Number(row.at),
    entries,
  };
  if (row.kind !== 'external' || row.external === null) return base;
  const x = row.external;
  return {
    ...base,
    external: { reason: x.reason, skills: x.skills, purged: x.purged, nextId: x.nextId, renumbered: new Map(x.renumbered) },
  };
}
