import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries installed (`/usr/lib/postgresql/<version>/bin`). */
async function serverBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[]))
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  if (!newest) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (install postgresql)');
  return join('/usr/lib/postgresql', newest, 'bin');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port (trust
 * auth, loopback only), so a test may stop and restart it — never the machine's shared
 * server. PostgreSQL refuses to run as root: as root, it runs as the `postgres` user.
 */
export class PrivateServer {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** Creates the cluster (initdb) and starts it. */
  static async start(): Promise<PrivateServer> {
    const bin = await serverBin();
    const dir = await mkdtemp(join(tmpdir(), 'cohort-pg-server-'));
    const server = new PrivateServer(bin, dir, await freePort());
    if (process.getuid?.() === 0) await chown(dir, ...(await postgresIds()));
    await server.as('initdb', ['-D', server.data, '-A', 'trust', '-U', 'postgres', '--no-instructions']);
    await server.begin();
    return server;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private async as(program: string, args: readonly string[]): Promise<void> {
    const path = join(this.bin, program);
    const asRoot = process.getuid?.() === 0;
    await run(asRoot ? 'runuser' : path, asRoot ? ['-u', 'postgres', '--', path, ...args] : [...args], { cwd: this.dir });
  }

  private begin(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on`;
    return this.as('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'log'), '-w', 'start']);
  }

  /** Kills the server as a crash would (`-m immediate`: no checkpoint, recovery from the WAL on start), then starts it again after `downMs`. */
  async crashAndRestart(downMs: number): Promise<void> {
    await this.as('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.begin();
  }

  /** Stops the server and removes its directory. */
  async dispose(): Promise<void> {
    await this.as('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** The uid and gid of the `postgres` user. */
async function postgresIds(): Promise<[number, number]> {
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return [uid, gid];
}
