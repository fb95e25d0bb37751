/**
 * The processes the scenarios start (the durable-merge committers, the durable workers): the
 * bundle `./pnpmw bench` builds, or the source through tsx; and the JSON lines they print.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { now } from './measure.ts';

/** Starts `source` (a file of `src/scenarios`), or the bundle named by `$bundleEnv`, with `args` as its one JSON argument. */
export function startChild(bundleEnv: string, source: string, args: object): ChildProcessWithoutNullStreams {
  const bundled = process.env[bundleEnv];
  const entry = bundled ? [bundled] : ['--import', 'tsx', fileURLToPath(new URL(`./scenarios/${source}`, import.meta.url))];
  return spawn(process.execPath, [...entry, JSON.stringify(args)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * What a child process was given, checked by `schema`: its one JSON argument (the default), or
 * a line its parent wrote. A child given something else says what on stderr and exits with code 2.
 */
export function childInput<T>(schema: z.ZodType<T>, what: string, text = process.argv[2] ?? ''): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(what, `not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : refuse(what, z.prettifyError(parsed.error));
}

function refuse(what: string, why: string): never {
  process.stderr.write(`${what}: bad input: ${why}\n`);
  process.exit(2);
}

/** A line a child printed, with when it arrived here (`now()`). */
export interface ChildLine {
  readonly type: string;
  readonly at: number;
  readonly [key: string]: unknown;
}

/** The JSON lines of a child, as they come. */
export interface ChildLines {
  readonly lines: readonly ChildLine[];
  /** The first line of `type` that arrived after `since` (a `now()` time); rejects, with the end of its stderr, once the child exited without it. */
  next(type: string, since?: number): Promise<ChildLine>;
}

/** Reads `proc`'s JSON lines (`what` names it in errors). */
export function childLines(proc: ChildProcessWithoutNullStreams, what: string): ChildLines {
  const lines: ChildLine[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  let errors = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const text = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (text.startsWith('{')) lines.push({ ...(JSON.parse(text) as { type: string }), at: now() });
    }
    for (const w of waiters) w();
  });
  proc.stderr.on('data', (chunk: Buffer) => void (errors = (errors + chunk.toString()).slice(-4_000)));
  proc.on('exit', () => {
    for (const w of waiters) w();
  });
  const next = (type: string, since = -1): Promise<ChildLine> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = lines.find((l) => l.type === type && l.at > since);
        if (found) resolve(found);
        else if (proc.exitCode !== null || proc.signalCode !== null)
          reject(new Error(`${what} exited before printing ${type}:\n${errors}`));
        else return;
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { lines, next };
}
