/** Running commands and waiting on servers, for the install test. */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** What a command did: its exit code, what it printed, and all of it as a failure message. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The command and what it printed, for a failure message. */
  readonly report: string;
}

/** The environment every command runs in: no colours in what it prints. */
export const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

function ran(
  command: string,
  args: readonly string[],
  cwd: string,
  status: string,
  code: number | null,
  stdout: string,
  stderr: string,
): Ran {
  const tail = (s: string) => (s.length > 4000 ? `…${s.slice(-4000)}` : s);
  return {
    code,
    stdout,
    stderr,
    report: `${command} ${args.join(' ')} (in ${cwd}): ${status}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`,
  };
}

/** Runs `command` to its end (at most `timeoutMs`). */
export function run(command: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Ran {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env });
  return ran(
    command,
    args,
    cwd,
    r.error ? `error ${r.error.message}` : `exit ${r.status ?? r.signal}`,
    r.status,
    r.stdout ?? '',
    r.stderr ?? '',
  );
}

/** Like {@link run}, without blocking: the checkers run while npm installs. */
export function runAsync(command: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', (error) => resolve(ran(command, args, cwd, `error ${error.message}`, null, stdout, stderr)));
    child.on('close', (code, signal) => resolve(ran(command, args, cwd, `exit ${code ?? signal}`, code, stdout, stderr)));
  });
}

/** Fails the current step with the command's output when it did not exit 0. */
export function ok(r: Ran): Ran {
  if (r.code !== 0) throw new Error(r.report);
  return r;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `condition` holds, checking every 50 ms; throws `message()` after `timeoutMs`. */
export async function until(condition: () => boolean, message: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message());
    await sleep(50);
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/** What an MCP server over stdio answered: everything it printed, and its exit code once its stdin closed. */
export interface McpExchange {
  readonly output: string;
  readonly code: number | null;
}

/**
 * Starts `node <args>` as an MCP server over stdio, initializes it as a client would, lists
 * its tools, then closes its stdin and waits (20 s at most) for it to exit.
 */
export async function mcpOverStdio(node: string, args: readonly string[], cwd: string): Promise<McpExchange> {
  const server = spawn(node, args, { cwd, env });
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const send = (message: object) => server.stdin.write(`${JSON.stringify(message)}\n`);
  try {
    const clientInfo = { name: 'install-check', version: '1' };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
    await until(
      () => output.includes('"id":1'),
      () => `no answer to initialize:\n${output}`,
    );
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await until(
      () => output.includes('"id":2'),
      () => `no answer to tools/list:\n${output}`,
    );
    server.stdin.end();
    const [code] = await Promise.race([exited, sleep(20_000).then(() => [null, 'timeout'] as const)]);
    return { output, code };
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
  }
}
