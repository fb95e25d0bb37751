import type { AppliedOp, Skillbook } from '@cohort/skillbook';
import { replayHistory } from './replayHistory.ts';
import type { PersistedCommit } from './Store.ts';
import { sameSkillFields } from './internal/external/bookChange.ts';
import { blocksOf } from './internal/journal/JournalLine.ts';
import { EXTERNAL_SESSION, blockSession, createdCommit, persistedCommit } from './internal/journal/persistedCommit.ts';
import { readOrigin } from './internal/journal/originFile.ts';
import type { OriginRead } from './internal/journal/originFile.ts';
import type { StorePaths } from './internal/disk/StorePaths.ts';
import type { JournalEntry } from './internal/journal/scanJournal.ts';
import { inspectCopies } from './inspectCopies.ts';
import type { CopiesInspection } from './inspectCopies.ts';
import { nodeFs } from './nodeFs.ts';
import type { StoreFs } from './StoreFs.ts';
import type { FilePosition } from './StoreOpenError.ts';
import type { LockHolder, StoreNotice } from './StoreNotice.ts';
import { sha256Hex } from './internal/disk/digest.ts';
import { readLock } from './internal/disk/readLock.ts';
import { isLedgerFault, readLedger } from './internal/disk/Ledger.ts';
import type { Ledger } from './internal/disk/Ledger.ts';
import { readConflictLog } from './internal/disk/NoticeLog.ts';
import { readDisk } from './internal/disk/readDisk.ts';
import { RecoveryCopies } from './internal/disk/RecoveryCopies.ts';
import { scanJournal } from './internal/journal/scanJournal.ts';
import { storePaths } from './internal/disk/StorePaths.ts';
import { documentPathProblem, resolveDocument } from './internal/disk/documentPath.ts';

/** One session's block of a commit, as `cohort book log` shows it. */
export interface InspectedBlock {
  readonly sessionId: string;
  /** Root … this session. */
  readonly path: readonly string[];
  readonly name?: string;
  /** `TYPE skill-id` per op. */
  readonly ops: readonly string[];
}

/** One journal record, as `cohort book log` shows it. */
export interface InspectedCommit {
  /** A root commit; changes taken in from another writer; an id lease; a re-basing recorded by an older version (`mark`). */
  readonly kind: 'commit' | 'external' | 'lease' | 'mark';
  readonly revision: number;
  readonly at: number;
  readonly writer: string;
  /** For a commit: the root session and its path; for external changes: `external`. */
  readonly sessionId: string | null;
  readonly path: readonly string[];
  /** For a commit: one block per session, in order. */
  readonly blocks: readonly InspectedBlock[];
  /** For a commit: `TYPE skill-id` per op; otherwise what the record says (`adopted: 2 skills, 1 deleted`, `ids 41–1064`). */
  readonly ops: readonly string[];
  /** Whether the document already holds it (else it is replayed from the journal on open). */
  readonly inDocument: boolean;
  readonly line: number;
  readonly offset: number;
}

/** Something `verify` found: `damage` makes it fail. */
export interface InspectionFinding {
  readonly severity: 'damage' | 'warning' | 'info';
  readonly code: string;
  readonly message: string;
  readonly file: string;
  readonly position?: FilePosition;
}

/** A read-only look at a file store's files (nothing is written, no lock is taken). */
export interface BookInspection {
  readonly document: string;
  /** No damage found. */
  readonly ok: boolean;
  /** The book the store would open with (document + journal), when it can be read. */
  readonly book: Skillbook | null;
  readonly ledger: Ledger | null;
  readonly journal: { readonly bytes: number; readonly commits: number; readonly marks: number; readonly pastDocument: number };
  readonly entries: readonly InspectedCommit[];
  readonly recoveryCopies: readonly string[];
  /** The recovery copies compared with the book: the skills that live only in them (`null` when the book cannot be read; absent for a store without copies). */
  readonly copies?: CopiesInspection | null;
  readonly conflictLog: readonly StoreNotice[];
  /** How many refused commits the store's log records, beside `conflictLog`'s notices (a PostgreSQL store's; absent for a file store, whose log holds notices only). */
  readonly refusedCommits?: number;
  readonly lock: LockHolder | null;
  readonly findings: readonly InspectionFinding[];
}

const opText = (op: AppliedOp): string => `${op.type} ${op.skill_id}`;

function inspected(e: JournalEntry, ledger: Ledger | null): InspectedCommit {
  const line = e.line;
  const base = {
    revision: line.rev,
    at: line.at,
    writer: line.writer,
    inDocument: ledger !== null && line.rev <= ledger.revision,
    line: e.lineNo,
    offset: e.offset,
  };
  if (line.t === 'commit') {
    const blocks = blocksOf(line).map((b): InspectedBlock => ({ ...blockSession(b), ops: b.ops.map(opText) }));
    return { kind: 'commit', ...base, sessionId: line.session, path: line.path, blocks, ops: blocks.flatMap((b) => b.ops) };
  }
  if (line.t === 'lease')
    return { kind: 'lease', ...base, sessionId: null, path: [], blocks: [], ops: [`ids ${line.from}–${line.to - 1}`] };
  if (line.t === 'mark') return { kind: 'mark', ...base, sessionId: null, path: [], blocks: [], ops: [line.reason] };
  const what = `${line.reason}: ${line.skills.length} skill${line.skills.length === 1 ? '' : 's'}${line.purged.length > 0 ? `, ${line.purged.length} deleted` : ''}`;
  return { kind: 'external', ...base, sessionId: EXTERNAL_SESSION, path: [EXTERNAL_SESSION], blocks: [], ops: [what] };
}

/**
 * Replays the persisted audit — every commit and every change taken in, from the empty book —
 * and compares it with the book the files hold, skill by skill.
 */
function checkHistory(entries: readonly JournalEntry[], origin: OriginRead, book: Skillbook, paths: StorePaths): InspectionFinding[] {
  const file = paths.journal;
  if (!origin.ok)
    return [
      {
        severity: 'warning',
        code: 'history_incomplete',
        message: `what the store was created with cannot be read: ${origin.message}`,
        file: paths.origin,
      },
    ];
  const created = origin.origin ? [createdCommit(origin.origin.book, origin.origin.writer, origin.origin.at)] : [];
  const commits = [...created, ...entries.map((e) => persistedCommit(e.line)).filter((c): c is PersistedCommit => c !== null)];
  const replayed = replayHistory(commits);
  if (!replayed.ok) {
    const old = commits.some((c) => c.kind === 'external' && !c.external);
    return [
      {
        severity: old ? 'warning' : 'damage',
        code: old ? 'history_incomplete' : 'history_mismatch',
        message: `the audit does not replay at revision ${replayed.revision}: ${replayed.message}`,
        file,
      },
    ];
  }
  const differ = differences(replayed.book, book);
  if (differ.length === 0) return [];
  // a store an older version started from a document did not record what it started with
  const old = entries.length === 0 || entries[0]?.line.v === 1;
  return [
    {
      severity: old ? 'warning' : 'damage',
      code: old ? 'history_incomplete' : 'history_mismatch',
      message: `replaying the audit does not give the book: ${differ.length} skill${differ.length === 1 ? '' : 's'} differ (${differ.slice(0, 5).join(', ')}${differ.length > 5 ? ', …' : ''})`,
      file,
    },
  ];
}

/** Ids whose skills differ between two books (in either). */
function differences(a: Skillbook, b: Skillbook): string[] {
  const out: string[] = [];
  for (const skill of b.skills()) {
    const other = a.get(skill.id);
    if (!other || !sameSkillFields(other, skill)) out.push(skill.id);
  }
  for (const skill of a.skills()) if (!b.has(skill.id)) out.push(skill.id);
  return out;
}

/**
 * Inspects the files of the store of `document` without writing anything: the book it would
 * open with, the audit journal (each commit with its session path), recovery copies, the
 * conflict log, the lock, and every finding of an integrity check. `cohort book` is built on it.
 *
 * @example
 * ```ts
 * const report = await inspectBook('data/skillbook.json');
 * if (!report.ok) for (const f of report.findings) console.error(f.severity, f.message);
 * ```
 */
export async function inspectBook(document: string, options: { readonly fs?: StoreFs } = {}): Promise<BookInspection> {
  const fs = options.fs ?? nodeFs;
  // a document opened under a symbolic link is the file it points to, as for `FileStore.open`
  const resolved = documentPathProblem(document) ? null : await resolveDocument(fs, document).catch(() => null);
  const paths = storePaths(resolved?.ok ? resolved.document : document);
  const findings: InspectionFinding[] = [];
  if (resolved && !resolved.ok && resolved.error.code === 'hard_link') {
    findings.push({ severity: 'damage', code: 'hard_link', message: resolved.error.message, file: document });
  }
  const ledgerRead = await readLedger(fs, paths.ledger);
  const ledger = ledgerRead !== null && !isLedgerFault(ledgerRead) ? ledgerRead : null;
  const bytes = (await fs.readFile(paths.journal)) ?? new Uint8Array(0);
  const scan = scanJournal(bytes);
  const entries = scan.entries.map((e) => inspected(e, ledger));
  if (scan.tail) {
    findings.push({
      severity: 'damage',
      code: 'torn_tail',
      message: `${scan.tail.bytes} bytes after the last good line (${scan.tail.reason}); the next open cuts them`,
      file: paths.journal,
      position: { offset: scan.tail.offset, line: scan.tail.lineNo },
    });
  }
  const disk = await readDisk(fs, paths);
  let book: Skillbook | null = null;
  if (!disk.ok) {
    const e = disk.error;
    findings.push({ severity: 'damage', code: e.code, message: e.message, file: e.file, ...(e.position ? { position: e.position } : {}) });
  } else if (disk.value.kind === 'missing') {
    findings.push({ severity: 'damage', code: 'missing_document', message: 'there is no document', file: paths.document });
  } else if (disk.value.kind === 'fresh') {
    book = disk.value.book;
    findings.push({
      severity: 'info',
      code: 'untracked',
      message: 'an ACE document Cohort has not opened yet (no ledger)',
      file: paths.document,
    });
  } else {
    const v = disk.value;
    book = v.head;
    if (v.rollForward.document || v.rollForward.base)
      findings.push({
        severity: 'info',
        code: 'unfinished_checkpoint',
        message: 'a checkpoint was interrupted after its commit point; the next open finishes it',
        file: paths.ledger,
      });
    if (v.document && v.document.digest !== v.ledger.contentDigest) {
      findings.push({
        severity: 'warning',
        code: 'changed_by_another_writer',
        message: `the document changed since Cohort wrote it (digest ${v.document.digest.slice(0, 12)}); the next open reconciles it`,
        file: paths.document,
      });
    }
  }
  const base = await fs.readFile(paths.base);
  if (ledger && base && sha256Hex(base) !== ledger.contentDigest && disk.ok) {
    findings.push({
      severity: 'warning',
      code: 'stale_base',
      message: 'the base file does not hold the ledger revision; the next open rewrites it',
      file: paths.base,
    });
  }
  const copies = await new RecoveryCopies(fs, paths).list();
  if (copies.length > 0)
    findings.push({
      severity: 'info',
      code: 'recovery_copies',
      message: `${copies.length} recovery cop${copies.length === 1 ? 'y' : 'ies'} beside the document`,
      file: paths.dir,
    });
  const copySkills =
    book && copies.length > 0 ? await inspectCopies(document, book, { fs }) : book ? { copies: [], onlyInCopies: 0 } : null;
  if (copySkills && copySkills.onlyInCopies > 0) {
    const n = copySkills.onlyInCopies;
    findings.push({
      severity: 'warning',
      code: 'skills_only_in_copies',
      message: `${n} skill${n === 1 ? ' lives' : 's live'} only in recovery copies: \`cohort book recover\` takes them back`,
      file: paths.dir,
    });
  }
  const lock = await readLock(fs, paths.lock);
  if (lock)
    findings.push({
      severity: 'info',
      code: 'locked',
      message: `locked by pid ${lock.pid} on ${lock.host} (writer ${lock.writerId}, generation ${lock.generation})`,
      file: paths.lock,
    });
  if (book) findings.push(...checkHistory(scan.entries, await readOrigin(fs, paths), book, paths));
  const commits = scan.entries.filter((e) => e.line.t === 'commit').length;
  return {
    document,
    ok: !findings.some((f) => f.severity === 'damage'),
    book,
    ledger,
    entries,
    journal: {
      bytes: bytes.length,
      commits,
      marks: scan.entries.length - commits,
      pastDocument: entries.filter((e) => e.kind === 'commit' && !e.inDocument).length,
    },
    recoveryCopies: copies,
    copies: copySkills,
    conflictLog: await readConflictLog(fs, paths.conflicts),
    lock,
    findings,
  };
}
