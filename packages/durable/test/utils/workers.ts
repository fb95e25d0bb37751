import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleChild } from '../../../../test/utils/bundleChild.ts';
import type { WorkerOptions } from './worker.ts';

/** A worker process and the JSON lines it printed. */
export interface WorkerProcess {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: Record<string, unknown>[];
  readonly output: () => string;
  /** Resolves with the first printed line of type `t`. */
  line(t: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/**
 * Bundles worker.ts once (a process through tsx costs over a second of CPU). DBOS stays outside
 * the bundle (it requires optional packages it may lack): the bundle is written under the
 * package's node_modules, where it resolves.
 */
export async function bundleWorker(): Promise<{ file: string; dispose(): Promise<void> }> {
  const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const near = fileURLToPath(new URL('../../node_modules/.cache', import.meta.url));
  const child = await bundleChild(entry, 'worker-', { near, external: ['@dbos-inc/dbos-sdk'] });
  return { file: child.args[0] ?? '', dispose: () => child.dispose() };
}

/** Starts a worker from the bundle. */
export function startWorker(file: string, options: WorkerOptions): WorkerProcess {
  const proc = spawn(process.execPath, [file, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let text = '';
  let pending = '';
  const waiters: (() => void)[] = [];
  const onData = (chunk: Buffer): void => {
    text += chunk.toString();
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    for (const w of waiters.splice(0)) w();
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', (chunk: Buffer) => void (text += chunk.toString()));
  const line = async (t: string, timeoutMs = 30_000): Promise<Record<string, unknown>> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((l) => l['t'] === t);
      if (found) return found;
      if (Date.now() > end || proc.exitCode !== null) throw new Error(`worker ${options.executorId} printed no ${t}:\n${text}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return { proc, lines, output: () => text, line };
}
