import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { StoreClock } from './StoreClock.ts';
import { systemStoreClock } from './StoreClock.ts';
import type { StoreFs } from './StoreFs.ts';
import type { StoreOpenError } from './StoreOpenError.ts';
import { openFailure } from './StoreOpenError.ts';
import { resolveDocument } from './internal/disk/documentPath.ts';
import { writeFresh } from './internal/disk/atomicWrite.ts';
import { fromUtf8 } from './internal/disk/digest.ts';
import { decodeLine } from './internal/journal/lineCodec.ts';
import { isLedgerFault, readLedger, writeLedger } from './internal/disk/Ledger.ts';
import type { Ledger } from './internal/disk/Ledger.ts';
import { scanJournal } from './internal/journal/scanJournal.ts';
import { storePaths } from './internal/disk/StorePaths.ts';
import type { StorePaths } from './internal/disk/StorePaths.ts';
import { WriterLock, isProcessAlive } from './internal/disk/WriterLock.ts';
import type { ProcessIdentity } from './internal/disk/WriterLock.ts';
import { nodeFs } from './nodeFs.ts';

/** A record that still reads (its checksum holds) among the lines a repair cuts. */
export interface CutRecord {
  readonly kind: 'commit' | 'external' | 'lease' | 'mark';
  readonly revision: number;
  readonly line: number;
  readonly writer: string;
  /** The root session of a commit. */
  readonly sessionId: string | null;
  /** Whether the document holds it already (a commit it does not hold is an acknowledged merge the cut loses). */
  readonly inDocument: boolean;
}

/** What a repair of the journal cuts: from the first byte of the damaged write to the end. */
export interface JournalRepair {
  readonly journal: string;
  /** `corrupt`: damage that other writes follow (the store does not open); `torn`: the last write is torn (opening cuts it too). */
  readonly damage: 'corrupt' | 'torn';
  readonly message: string;
  /** Where the cut starts: the damaged write's first byte and line. */
  readonly offset: number;
  readonly line: number;
  readonly bytes: number;
  readonly lines: number;
  /** The records among the cut lines that still read; the backup keeps them all. */
  readonly records: readonly CutRecord[];
  /** Commits among them the document does not hold: acknowledged merges that only the backup keeps. */
  readonly lost: number;
  /** The cut starts before the checkpoint the ledger names: the ledger is moved back to it (the document holds that checkpoint's book; the history in between stays only in the backup). */
  readonly movesLedger: boolean;
}

/** The outcome of {@link repairJournal}: the repair (or `null`: nothing to repair) and, when applied, where the backup is. */
export type RepairResult =
  | { readonly ok: true; readonly repair: JournalRepair | null; readonly applied: boolean; readonly backup: string | null }
  | { readonly ok: false; readonly error: StoreOpenError };

/** Options of {@link repairJournal}. */
export interface RepairOptions {
  readonly fs?: StoreFs;
  readonly clock?: StoreClock;
  /** Cut (default `false`: only say what would go). */
  readonly apply?: boolean;
  /** This process, for the writer lock (default: the real pid and host name). */
  readonly process?: ProcessIdentity;
}

function cutRecords(bytes: Uint8Array, offset: number, firstLine: number, ledger: Ledger | null): { records: CutRecord[]; lines: number } {
  const records: CutRecord[] = [];
  const texts = (fromUtf8(bytes.subarray(offset)) ?? '').split('\n');
  texts.forEach((text, i) => {
    const decoded = decodeLine(text);
    if (!decoded.ok || decoded.line.t === 'group') return;
    const l = decoded.line;
    const inDocument = ledger !== null && l.rev <= ledger.revision && l.t !== 'lease';
    records.push({
      kind: l.t,
      revision: l.rev,
      line: firstLine + i,
      writer: l.writer,
      sessionId: l.t === 'commit' ? l.session : null,
      inDocument,
    });
  });
  return { records, lines: texts.length - (texts[texts.length - 1] === '' ? 1 : 0) };
}

/** The repair the journal's bytes call for, or `null` when every write is whole. */
export function planRepair(paths: StorePaths, bytes: Uint8Array, ledger: Ledger | null): JournalRepair | null {
  const scan = scanJournal(bytes);
  const fault = scan.corruption ?? scan.tail;
  if (!fault) return null;
  const { records, lines } = cutRecords(bytes, fault.offset, fault.lineNo, ledger);
  return {
    journal: paths.journal,
    damage: scan.corruption ? 'corrupt' : 'torn',
    message: fault.message,
    offset: fault.offset,
    line: fault.lineNo,
    bytes: bytes.length - fault.offset,
    lines,
    records,
    lost: records.filter((r) => r.kind === 'commit' && !r.inDocument).length,
    movesLedger: ledger !== null && ledger.journalOffset > fault.offset,
  };
}

/** `skillbook.json.journal.damaged-20260101T000000Z`: where the whole journal is kept before a cut. */
function backupPath(paths: StorePaths, now: number): string {
  return `${paths.journal}.damaged-${new Date(now).toISOString().replace(/[-:]|\.\d+/g, '')}`;
}

/**
 * Repairs a journal the store refuses to open (`corrupt_journal`): cuts it from the first byte
 * of the damaged write to the end, after keeping the whole journal beside it
 * (`<journal>.damaged-<time>`). Without `apply` it only says what would go, writing nothing;
 * with it, it takes the writer lock (no Cohort process writes meanwhile), plans again, keeps
 * the backup (fsynced), moves the ledger back when the cut starts before its checkpoint, and
 * cuts. Never throws: a failure is a value, like {@link FileStore.open}'s.
 *
 * @example
 * ```ts
 * const plan = await repairJournal('data/skillbook.json');
 * if (plan.ok && plan.repair) console.log(`${plan.repair.lines} lines would go, ${plan.repair.lost} of them acknowledged merges`);
 * ```
 */
export async function repairJournal(document: string, options: RepairOptions = {}): Promise<RepairResult> {
  const fs = options.fs ?? nodeFs;
  const clock = options.clock ?? systemStoreClock;
  try {
    const resolved = await resolveDocument(fs, document);
    if (!resolved.ok) return resolved;
    const paths = storePaths(resolved.document);
    if (!options.apply) return { ok: true, ...(await plan(fs, paths)), applied: false, backup: null };
    const identity = options.process ?? { pid: process.pid, host: hostname(), isAlive: isProcessAlive };
    const lock = new WriterLock(fs, paths.lock, `repair-${randomUUID().slice(0, 8)}`, identity, clock, { leaseMs: 30_000, waitMs: 0 });
    const attempt = await lock.acquire();
    if (!attempt.ok)
      return {
        ok: false,
        error: { code: 'locked', message: attempt.message, file: paths.lock, ...(attempt.holder ? { holder: attempt.holder } : {}) },
      };
    try {
      return await cut(fs, paths, clock);
    } finally {
      await lock.release().catch(() => undefined);
    }
  } catch (error) {
    return { ok: false, error: openFailure(error, `${document}.journal`) };
  }
}

async function plan(fs: StoreFs, paths: StorePaths): Promise<{ repair: JournalRepair | null; ledger: Ledger | null; bytes: Uint8Array }> {
  const read = await readLedger(fs, paths.ledger);
  const ledger = read === null || isLedgerFault(read) ? null : read;
  const bytes = (await fs.readFile(paths.journal)) ?? new Uint8Array(0);
  return { repair: planRepair(paths, bytes, ledger), ledger, bytes };
}

async function cut(fs: StoreFs, paths: StorePaths, clock: StoreClock): Promise<RepairResult> {
  const { repair, ledger, bytes } = await plan(fs, paths);
  if (!repair) return { ok: true, repair: null, applied: false, backup: null };
  const backup = backupPath(paths, clock.now());
  await writeFresh(fs, backup, bytes);
  await fs.syncDir(paths.dir);
  if (ledger && repair.movesLedger) await writeLedger(fs, paths.ledger, { ...ledger, journalOffset: repair.offset });
  await fs.truncate(paths.journal, repair.offset);
  return { ok: true, repair, applied: true, backup };
}
