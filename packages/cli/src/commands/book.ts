import { z } from 'zod';
import { inspectBook } from '@cohort/store';
import type { BookInspection, InspectedCommit } from '@cohort/store';
import type { Output } from '../runCli.ts';

const USAGE = `usage: cohort book show|stats|log|verify <path> [--json] [--limit N]

  show    the Skillbook as the prompt sees it (document + journal)
  stats   skill counts, revisions, journal, recovery copies, conflict log, lock
  log     the audit journal: each merged commit with its session path
  verify  an integrity check of the document, ledger, base and journal (exit 1 on damage)
`;

/** The command line of `cohort book`, checked at the boundary. */
const BookArgsSchema = z.object({
  command: z.enum(['show', 'stats', 'log', 'verify']),
  path: z.string().min(1),
  json: z.boolean(),
  limit: z.number().int().positive().optional(),
});
type BookArgs = z.infer<typeof BookArgsSchema>;

function parseArgs(args: readonly string[]): BookArgs | string {
  const rest: string[] = [];
  let json = false;
  let limit: number | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a === '--json') json = true;
    else if (a === '--limit') limit = Number(args[(i += 1)]);
    else if (a.startsWith('--limit=')) limit = Number(a.slice('--limit='.length));
    else if (a.startsWith('--')) return `unknown option: ${a}`;
    else rest.push(a);
  }
  if (rest.length !== 2) return 'expected a subcommand and a path';
  const parsed = BookArgsSchema.safeParse({ command: rest[0], path: rest[1], json, ...(limit !== undefined ? { limit } : {}) });
  return parsed.success ? parsed.data : `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
}

/** Left-aligned `label  value` rows. */
function rows(pairs: readonly (readonly [string, string | number])[]): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join('');
}

function time(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function where(e: InspectedCommit): string {
  if (e.kind === 'mark') return `(${e.ops.join(', ')})`;
  return e.path.length > 0 ? e.path.join('/') : (e.sessionId ?? '');
}

/** One aligned line per journal entry; `*` marks commits the document does not hold yet. */
function logLines(entries: readonly InspectedCommit[]): string {
  const writer = Math.max(6, ...entries.map((e) => e.writer.length));
  const path = Math.max(4, ...entries.map((e) => where(e).length));
  return entries.map((e) => {
    const what = e.kind === 'commit' ? e.ops.join(', ') : 'the document was re-based here';
    return `${e.inDocument ? ' ' : '*'}r${String(e.revision).padEnd(6)} ${time(e.at)}  ${e.writer.padEnd(writer)}  ${where(e).padEnd(path)}  ${what}\n`;
  }).join('');
}

function show(report: BookInspection, args: BookArgs, out: Output): number {
  const book = report.book;
  if (!book) return damaged(report, out);
  if (args.json) out.write(`${JSON.stringify({ document: report.document, revision: book.revision, prompt: book.asPrompt() }, null, 2)}\n`);
  else out.write(`${book.asPrompt()}\n`);
  return 0;
}

function stats(report: BookInspection, args: BookArgs, out: Output): number {
  const book = report.book;
  if (!book) return damaged(report, out);
  const s = book.stats();
  const summary = {
    document: report.document,
    revision: book.revision,
    documentRevision: report.ledger?.revision ?? null,
    skills: s.skills,
    activeSkills: s.active_skills,
    bySection: s.by_section,
    journal: report.journal,
    recoveryCopies: report.recoveryCopies,
    conflictLogRecords: report.conflictLog.length,
    lock: report.lock,
  };
  if (args.json) {
    out.write(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  }
  out.write(`${report.document}\n`);
  out.write(rows([
    ['revision', `${book.revision} (document at ${summary.documentRevision ?? '—'}, ${report.journal.pastDocument} in the journal past it)`],
    ['skills', `${s.skills} (${s.active_skills} active)`],
    ...Object.entries(s.by_section).map(([k, v]): [string, number] => [`  ${k}`, v]),
    ['journal', `${report.journal.commits} commits, ${report.journal.marks} marks, ${report.journal.bytes} bytes`],
    ['recovery copies', report.recoveryCopies.length === 0 ? 'none' : report.recoveryCopies.join(', ')],
    ['conflict log', `${report.conflictLog.length} records`],
    ['lock', report.lock ? `pid ${report.lock.pid} on ${report.lock.host} (${report.lock.writerId})` : 'free'],
  ]));
  return 0;
}

function log(report: BookInspection, args: BookArgs, out: Output): number {
  const entries = args.limit ? report.entries.slice(-args.limit) : report.entries;
  if (args.json) {
    out.write(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) out.write('the journal is empty\n');
  out.write(logLines(entries));
  if (entries.some((e) => !e.inDocument)) out.write('\n* in the journal only: replayed onto the document on the next open\n');
  return 0;
}

function verify(report: BookInspection, args: BookArgs, out: Output): number {
  const code = report.ok ? 0 : 1;
  if (args.json) {
    out.write(`${JSON.stringify({ document: report.document, ok: report.ok, findings: report.findings }, null, 2)}\n`);
    return code;
  }
  for (const f of report.findings) {
    const p = f.position;
    const where = p?.line !== undefined ? `:${p.line}` : p?.offset !== undefined ? ` @${p.offset}` : '';
    out.write(`  ${f.severity.padEnd(7)} ${f.code.padEnd(26)} ${f.file}${where}: ${f.message}\n`);
  }
  const book = report.book;
  out.write(report.ok
    ? `ok: ${report.document} — revision ${book?.revision ?? '—'}, ${book?.size ?? 0} skills, ${report.journal.commits} journaled commits\n`
    : `damaged: ${report.document} — ${report.findings.filter((f) => f.severity === 'damage').length} problem(s); nothing was changed\n`);
  return code;
}

function damaged(report: BookInspection, out: Output): number {
  out.write(`cannot read ${report.document}:\n`);
  for (const f of report.findings.filter((x) => x.severity === 'damage')) out.write(`  ${f.code}: ${f.message} (${f.file})\n`);
  out.write('run `cohort book verify` for details\n');
  return 1;
}

/**
 * `cohort book show|stats|log|verify <path> [--json]`: read-only views of a file store's
 * files (nothing is written and no lock is taken, so it is safe while Cohort runs).
 * Resolves with the exit code: 0, 1 on damage (or an unreadable book), 2 on a usage error.
 *
 * @example
 * ```ts
 * const code = await runBook(['verify', 'data/skillbook.json'], process.stdout);
 * ```
 */
export async function runBook(args: string[], out: Output): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    out.write(`${parsed}\n\n${USAGE}`);
    return 2;
  }
  const report = await inspectBook(parsed.path);
  switch (parsed.command) {
    case 'show':
      return show(report, parsed, out);
    case 'stats':
      return stats(report, parsed, out);
    case 'log':
      return log(report, parsed, out);
    case 'verify':
      return verify(report, parsed, out);
  }
}
