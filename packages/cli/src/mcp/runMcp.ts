import { FollowedFileStore, serveHttp, serveStdio, SkillbookMcp } from '@cohort/mcp';
import { createRuntime } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import type { Store } from '@cohort/store';
import { describeOpenError, FileStore } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import type { CliIo } from '../CliIo.ts';
import { isPostgresUrl } from '../commands/book/postgresTarget.ts';
import { packageVersion } from '../packageVersion.ts';
import { printable } from '../printable.ts';

/** What `cohort mcp` was asked to serve, and how. */
export interface McpRun {
  /** A document path or a `postgres://` URL; `null`: a book in memory. */
  readonly book: string | null;
  readonly http: { readonly host: string; readonly port: number } | null;
  readonly readOnly: boolean;
  readonly token: string | null;
  readonly idleTimeoutMs: number;
}

/** Opens the store `book` names, or says on stderr why it cannot. */
async function openStore(book: string | null, io: CliIo): Promise<Store | null | undefined> {
  if (book === null) return undefined;
  const opened = isPostgresUrl(book) ? await PostgresStore.open({ url: book }) : await FileStore.open(book);
  if (!opened.ok) {
    io.err.write(`cohort mcp: ${describeOpenError(opened.error)}\n`);
    return null;
  }
  return opened.store instanceof FileStore ? new FollowedFileStore(opened.store) : opened.store;
}

/** Resolves when the process is told to stop (Ctrl-C, SIGTERM), or when `also` resolves. */
function stopped(also: Promise<void> | null): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => () => resolve(signal);
    process.once('SIGINT', on('SIGINT'));
    process.once('SIGTERM', on('SIGTERM'));
    void also?.then(() => resolve('stdin closed'));
  });
}

/**
 * Serves the book until stdin ends (stdio) or the process is interrupted, then drops the open
 * tasks, waits for the merges on their way and closes the store. The protocol owns stdout
 * with stdio: everything the server says goes to stderr. Resolves with the exit code.
 */
export async function runMcp(run: McpRun, io: CliIo): Promise<number> {
  const store = await openStore(run.book, io);
  if (store === null) return 1;
  const rt: Runtime = createRuntime(store ? { store } : {});
  await rt.ready;
  const log = (line: string) => void io.err.write(`cohort mcp: ${printable(line)}\n`);
  const mcp = new SkillbookMcp({
    runtime: rt,
    ...(store ? { store } : {}),
    readOnly: run.readOnly,
    idleTimeoutMs: run.idleTimeoutMs,
    version: packageVersion(),
    log,
  });
  const what = `${run.book ?? 'a book in memory'} (revision ${rt.revision}, ${rt.book.stats().active_skills} active skills${run.readOnly ? ', read-only' : ''})`;
  let reason: string;
  if (run.http) {
    const endpoint = await serveHttp(mcp, { ...run.http, ...(run.token ? { token: run.token } : {}) }).catch((error: unknown) => {
      io.err.write(
        `cohort mcp: cannot listen on ${run.http?.host}:${run.http?.port}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return null;
    });
    if (!endpoint) {
      await rt.close();
      return 1;
    }
    log(`serving ${what} at ${endpoint.url}${run.token ? ' (bearer token required)' : ''}`);
    reason = await stopped(null);
    await endpoint.close();
  } else {
    const { ended } = await serveStdio(mcp);
    log(`serving ${what} on stdio`);
    reason = await stopped(ended);
  }
  log(`stopping (${reason})`);
  await mcp.close();
  await rt.close();
  return 0;
}
