import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { bundleChild } from '../../../../test/utils/bundleChild.ts';
import type { ChildCommand } from '../../../../test/utils/bundleChild.ts';
import { parseLine } from './mergeProtocol.ts';
import type { AckLine, ChildLine } from './mergeProtocol.ts';

/** The child that drives a FileStore directly (see mergeChild.ts); a runtime-driven child can take its place. */
export const MERGE_CHILD = fileURLToPath(new URL('./mergeChild.ts', import.meta.url));

export type { ChildCommand };

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

/**
 * How to start `entry`: `node` on a bundle of it (see `bundleChild`), or `node --import tsx
 * <entry>` when asked (`bundle` false) or when esbuild is not there.
 */
export async function childCommand(entry: string = MERGE_CHILD, bundle = true): Promise<ChildCommand> {
  const viaTsx: ChildCommand = { args: ['--import', 'tsx', entry], dispose: async () => undefined };
  if (!bundle) return viaTsx;
  try {
    return await bundleChild(entry, 'cohort-child-');
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

/** Where a describe block's children run: a temporary folder and the command that starts them. */
export interface ChildrenRoom {
  /** The children started so far: push each, so that it is killed after the block. */
  readonly children: MergeChild[];
  /** Makes the folder (named from `prefix`) and the command for `entry` (see `childCommand`): `document` is the store's path in the folder. */
  open(prefix: string, entry?: string): Promise<{ readonly document: string; readonly command: ChildCommand }>;
}

/** A room for a describe block's children: after the block (`afterAll`), every child is killed, the bundle and the folder removed. */
export function childrenRoom(): ChildrenRoom {
  const children: MergeChild[] = [];
  let dir = '';
  let command: ChildCommand | null = null;
  afterAll(async () => {
    for (const c of children) c.proc.kill('SIGKILL');
    await command?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    children,
    async open(prefix, entry) {
      dir = await mkdtemp(join(tmpdir(), prefix));
      command = await childCommand(entry);
      return { document: join(dir, 'skillbook.json'), command };
    },
  };
}
