import { z } from 'zod';
import type { StoreFs } from '../../StoreFs.ts';
import { atomicWrite } from './atomicWrite.ts';
import { fromUtf8, utf8 } from './digest.ts';
import { LeaseRecordSchema } from '../sequencing/IdLeases.ts';

/** An external skill the store gave a new id, remembered so that the same skill saved again lands on it too. */
export const RenumberedSchema = z.object({
  /** The id the other writer gave it. */
  from: z.string(),
  /** Its `created_at`: with the id, what identifies it across the other writer's saves. */
  createdAt: z.string(),
  to: z.string(),
});
/** See {@link RenumberedSchema}. */
export type Renumbered = z.infer<typeof RenumberedSchema>;

/** How many renumbered external skills a ledger remembers (the newest). */
export const REMEMBERED_RENUMBERINGS = 256;

/** How many of the documents it wrote (their revisions) a ledger remembers (the newest). */
export const REMEMBERED_CHECKPOINTS = 16;

/**
 * The revision ledger beside the document: which revision the document holds, the digest
 * of its exact bytes, who wrote it, how much of the journal it covers, the recovery copy its
 * content descends from, the id leases granted up to it, the external skills renumbered, and
 * the revisions of the last documents written.
 * It is the commit point of a checkpoint. A ledger of the first format (`cohort-ledger/1`) is
 * read as one with no leases and nothing renumbered.
 */
export const LedgerSchema = z.object({
  format: z.enum(['cohort-ledger/1', 'cohort-ledger/2']),
  revision: z.number().int().nonnegative(),
  contentDigest: z.string().regex(/^[0-9a-f]{64}$/),
  /** The journal's hash chain at `revision`: the first commit past it names this as `prev`. */
  chain: z.string(),
  writerId: z.string(),
  journalOffset: z.number().int().nonnegative(),
  lineage: z.string().nullable(),
  at: z.number(),
  leases: LeaseRecordSchema.default({ through: 0, ranges: [] }),
  renumbered: z.array(RenumberedSchema).default([]),
  /** The revisions of the last documents Cohort wrote (any of them may be what another program loaded). */
  checkpoints: z.array(z.number().int().nonnegative()).default([]),
});
/** See {@link LedgerSchema}. */
export type Ledger = z.infer<typeof LedgerSchema>;

/** A ledger that could not be read. */
export interface LedgerFault {
  readonly message: string;
}

/** Reads and checks the ledger: the ledger, `null` when there is none, or what is wrong with it. */
export async function readLedger(fs: StoreFs, path: string): Promise<Ledger | null | LedgerFault> {
  const bytes = await fs.readFile(path);
  if (!bytes) return null;
  const text = fromUtf8(bytes);
  if (text === null) return { message: 'not UTF-8' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { message: `not JSON: ${(error as Error).message}` };
  }
  const parsed = LedgerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { message: `not a ledger: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}` };
  }
  return parsed.data;
}

/** Whether {@link readLedger} found a fault. */
export function isLedgerFault(value: Ledger | null | LedgerFault): value is LedgerFault {
  return value !== null && !('format' in value);
}

/** Writes the ledger atomically (the commit point of a checkpoint). */
export async function writeLedger(fs: StoreFs, path: string, ledger: Ledger): Promise<void> {
  await atomicWrite(fs, path, utf8(`${JSON.stringify(ledger, null, 2)}\n`));
}

/** Whether two ledgers describe the same checkpoint. */
export function sameLedger(a: Ledger, b: Ledger): boolean {
  return (
    a.revision === b.revision &&
    a.contentDigest === b.contentDigest &&
    a.chain === b.chain &&
    a.journalOffset === b.journalOffset &&
    a.lineage === b.lineage
  );
}
