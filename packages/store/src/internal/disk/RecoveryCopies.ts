import { z } from 'zod';
import { Skillbook } from '@cohort/skillbook';
import type { PlainSkill } from '@cohort/skillbook';
import type { StoreFs } from '../../StoreFs.ts';
import { atomicWrite } from './atomicWrite.ts';
import { fromUtf8, sha256Hex, utf8 } from './digest.ts';
import { parseJsonBytes } from './parseJsonBytes.ts';
import type { StorePaths } from './StorePaths.ts';
import { copyPath } from './StorePaths.ts';

/** Recovery copies are at most this deep; past it, one fixed-point copy per writer is rewritten in place. */
export const MAX_RECOVERY_DEPTH = 3;

const MetaSchema = z.object({
  format: z.literal('cohort-recovery/1'),
  depth: z.number().int(),
  parent: z.string().nullable(),
  writerId: z.string(),
  document: z.string(),
  digest: z.string(),
  createdAt: z.number(),
  fixedPoint: z.boolean(),
  occurrence: z.string(),
});
type Meta = z.infer<typeof MetaSchema>;

/** Where our side went. */
export interface CopyWritten {
  readonly name: string;
  readonly path: string;
  readonly depth: number;
  readonly parent: string | null;
  readonly deduped: boolean;
  readonly fixedPoint: boolean;
  /** For the fixed-point copy: the digest of what it held before, and how many of its skills were carried over. */
  readonly replacedDigest: string | null;
  readonly carried: number;
}

/** What to keep. */
export interface CopyRequest {
  /** The side that lost real conflicts: the other writer's versions of those skills, under the live book's ids. */
  readonly book: Skillbook;
  /** The copy the document's content descends from (the ledger's lineage). */
  readonly lineage: string | null;
  readonly writerId: string;
  readonly at: number;
  readonly occurrence: string;
}

/** The name of the sidecar holding a copy's parent and depth. */
export function metaName(name: string): string {
  return name.replace(/\.json$/, '.meta.json');
}

/** Whether `name` is a recovery copy of the document (a sidecar is not). */
export function isRecoveryCopy(paths: StorePaths, name: string): boolean {
  return name.startsWith(`${paths.stem}.recovery-`) && name.endsWith('.json') && !name.endsWith('.meta.json');
}

/**
 * Writes and finds recovery copies. A copy is named from the sha256 of its content (the same
 * content is the same file: it dedupes); its depth is derived from its parent chain: a copy
 * whose sidecar is missing (a legacy copy) counts as depth 1, and a chain broken by deleting a
 * copy starts over. Past {@link MAX_RECOVERY_DEPTH}, the writer's one fixed-point copy is
 * rewritten in place, holding the union of what it held and the new side: never a new file per
 * attempt, and never one skill twice.
 */
export class RecoveryCopies {
  constructor(
    private readonly fs: StoreFs,
    private readonly paths: StorePaths,
  ) {}

  /** The recovery copies beside the document. */
  async list(): Promise<string[]> {
    return (await this.fs.readdir(this.paths.dir)).filter((n) => isRecoveryCopy(this.paths, n));
  }

  /** The depth of copy `name` from its parent chain (0: it does not exist). */
  async depthOf(name: string, guard = 0): Promise<number> {
    if (guard > MAX_RECOVERY_DEPTH + 2) return guard;
    if (!(await this.fs.stat(copyPath(this.paths, name)))) return 0;
    const meta = await this.readMeta(name);
    if (!meta || meta.parent === null || meta.parent === name) return 1;
    return 1 + (await this.depthOf(meta.parent, guard + 1));
  }

  /** Keeps `request.book` in a copy: a new one, an identical existing one, or (past the cap) the fixed-point one. */
  async keep(request: CopyRequest): Promise<CopyWritten> {
    const parentDepth = request.lineage ? await this.depthOf(request.lineage) : 0;
    const parent = parentDepth > 0 ? request.lineage : null;
    if (parentDepth + 1 > MAX_RECOVERY_DEPTH) return this.keepFixedPoint(request, parent);
    const text = request.book.toJSON();
    const digest = sha256Hex(text);
    const name = `${this.paths.stem}.recovery-${digest.slice(0, 16)}.json`;
    const path = copyPath(this.paths, name);
    if (await this.fs.stat(path)) {
      const depth = await this.depthOf(name);
      const meta = await this.readMeta(name);
      return { name, path, depth, parent: meta?.parent ?? null, deduped: true, fixedPoint: false, replacedDigest: null, carried: 0 };
    }
    const depth = parentDepth + 1;
    await this.writeMeta(name, { depth, parent, digest, fixedPoint: false }, request);
    await atomicWrite(this.fs, path, utf8(text));
    return { name, path, depth, parent, deduped: false, fixedPoint: false, replacedDigest: null, carried: 0 };
  }

  private async keepFixedPoint(request: CopyRequest, parent: string | null): Promise<CopyWritten> {
    const safe = request.writerId.replace(/[^A-Za-z0-9_.-]/g, '_');
    const name = `${this.paths.stem}.recovery-fixed-${safe}.json`;
    const path = copyPath(this.paths, name);
    const previousBytes = await this.fs.readFile(path);
    const previousText = previousBytes ? fromUtf8(previousBytes) : null;
    const previous = previousText === null ? null : Skillbook.parse(previousText);
    const union = previous?.ok ? unionOf(request.book, previous.book) : { book: request.book, carried: 0 };
    const text = union.book.toJSON();
    const digest = sha256Hex(text);
    const meta = await this.readMeta(name);
    const keptParent = parent === name ? (meta?.parent ?? null) : parent;
    const replacedDigest = previousBytes ? sha256Hex(previousBytes) : null;
    const base = { name, path, depth: MAX_RECOVERY_DEPTH, parent: keptParent, fixedPoint: true, replacedDigest, carried: union.carried };
    if (replacedDigest === digest) return { ...base, deduped: true };
    await this.writeMeta(name, { depth: MAX_RECOVERY_DEPTH, parent: keptParent, digest, fixedPoint: true }, request);
    await atomicWrite(this.fs, path, utf8(text));
    return { ...base, deduped: false };
  }

  private async readMeta(name: string): Promise<Meta | null> {
    const bytes = await this.fs.readFile(copyPath(this.paths, metaName(name)));
    return bytes ? parseJsonBytes(bytes, MetaSchema) : null;
  }

  private async writeMeta(
    name: string,
    fields: Pick<Meta, 'depth' | 'parent' | 'digest' | 'fixedPoint'>,
    request: CopyRequest,
  ): Promise<void> {
    const meta: Meta = {
      format: 'cohort-recovery/1',
      ...fields,
      writerId: request.writerId,
      document: this.paths.document,
      createdAt: request.at,
      occurrence: request.occurrence,
    };
    await atomicWrite(this.fs, copyPath(this.paths, metaName(name)), utf8(`${JSON.stringify(meta, null, 2)}\n`));
  }
}

/**
 * `fresh` plus the skills of `previous` it lacks, so rewriting the fixed-point copy drops
 * nothing it held. A copy holds each skill under its id in the live book, and ids are final,
 * so a skill of `previous` under an id `fresh` has is an older version of the same skill: the
 * newer replaces it, and no skill is held twice.
 */
function unionOf(fresh: Skillbook, previous: Skillbook): { book: Skillbook; carried: number } {
  const carried: PlainSkill[] = [];
  for (const s of previous.skills()) if (!fresh.has(s.id)) carried.push(s);
  if (carried.length === 0) return { book: fresh, carried: 0 };
  return {
    book: fresh.adopt({ skills: carried, purged: [], nextId: previous.nextId }, { revision: fresh.revision }),
    carried: carried.length,
  };
}
