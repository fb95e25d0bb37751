import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLine } from './mergeProtocol.ts';
import type { AckLine, ChildLine } from './mergeProtocol.ts';

/** The child that drives a FileStore directly (see mergeChild.ts); a runtime-driven child can take its place. */
export const MERGE_CHILD = fileURLToPath(new URL('./mergeChild.ts', import.meta.url));

/** A running child process that speaks the merge protocol. */
export interface MergeChild {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly acks: AckLine[];
  readonly lines: ChildLine[];
  /** Resolves at `READY`, rejects if the child ends first. */
  readonly ready: Promise<void>;
  /** Resolves when the process has exited and its output is read to the end. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Lets a child started with `waitForGo` open its store. */
  go(): void;
}

/** How to start a child: `node --import tsx <entry>`, or `node <bundle>` when the entry was bundled. */
export interface ChildCommand {
  readonly args: readonly string[];
  /** Removes the bundle, if one was made. */
  dispose(): Promise<void>;
}

type Esbuild = { build(options: Record<string, unknown>): Promise<unknown> };

/**
 * How to start `entry`. Starting a TypeScript child through tsx costs over a second of CPU
 * (tsx itself, then zod and rxjs through its loader); the kill test starts fifty, so it
 * bundles the entry once with the esbuild that tsx ships and starts plain `node` on the
 * bundle (a third of a second). Falls back to `node --import tsx` when esbuild is not there.
 */
export async function childCommand(entry: string = MERGE_CHILD, bundle = true): Promise<ChildCommand> {
  const viaTsx: ChildCommand = { args: ['--import', 'tsx', entry], dispose: async () => undefined };
  if (!bundle) return viaTsx;
  try {
    const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx'));
    const esbuild = fromTsx('esbuild') as Esbuild;
    const dir = await mkdtemp(join(tmpdir(), 'cohort-child-'));
    const outfile = join(dir, 'child.mjs');
    await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'error',
    });
    return { args: [outfile], dispose: () => rm(dir, { recursive: true, force: true }) };
  } catch {
    return viaTsx;
  }
}

/** Starts a child (`command`, default `node --import tsx <mergeChild.ts>`) with JSON options and parses what it prints. */
export function spawnMergeChild(
  options: Record<string, unknown>,
  command: Pick<ChildCommand, 'args'> = { args: ['--import', 'tsx', MERGE_CHILD] },
): MergeChild {
  const proc = spawn(process.execPath, [...command.args, JSON.stringify(options)], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const acks: AckLine[] = [];
  const lines: ChildLine[] = [];
  let stderr = '';
  let pending = '';
  let markReady: () => void = () => undefined;
  let failReady: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => undefined);
  proc.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = parseLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      lines.push(line);
      if (line.kind === 'ack') acks.push(line.ack);
      if (line.kind === 'ready') markReady();
      nl = pending.indexOf('\n');
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    proc.on('close', (code, signal) => {
      failReady(new Error(`the child ended before READY (code ${code}, signal ${signal}): ${stderr}`));
      resolve({ code, signal, stderr });
    });
  });
  return { proc, acks, lines, ready, closed, go: () => proc.stdin.write('GO\n') };
}
