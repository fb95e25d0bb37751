import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/** How a simple-protocol query message that ends its transaction ends: its last statement `COMMIT`, then a NUL. */
const ENDS_WITH_COMMIT = Buffer.from('COMMIT\0');

/**
 * A TCP proxy in front of a PostgreSQL server, for fault tests: it can refuse and drop every
 * connection (an outage), or let the next `COMMIT` reach the server and then cut the client
 * off before the answer comes back (the connection breaks with the outcome unknown to the
 * client; the server commits).
 */
export class PgProxy {
  private readonly server: Server;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  private down = false;
  private cutAtCommit = 0;
  /** Whether a cut COMMIT starts an outage at once (so no lookup can get through first). */
  private outageAfterCut = false;
  /** How many COMMITs were let through and then cut. */
  cutCommits = 0;
  /** With `record`: what went through, each way, as text (for tests that count what a client asked and heard). */
  readonly sent: string[] = [];
  readonly received: string[] = [];

  private constructor(
    private readonly target: { host: string; port: number },
    private readonly record: boolean,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  /** Starts a proxy to `host:port` on a free port of 127.0.0.1. */
  static async start(target: { host: string; port: number }, options: { readonly record?: boolean } = {}): Promise<PgProxy> {
    const proxy = new PgProxy(target, options.record === true);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's port. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` pointed at the proxy. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  private accept(client: Socket): void {
    if (this.down) {
      client.destroy();
      return;
    }
    const upstream = createConnection(this.target);
    const pair = { client, upstream };
    this.pairs.add(pair);
    const drop = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.on('data', (chunk: Buffer) => {
      if (this.record) this.received.push(chunk.toString('latin1'));
      client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      if (this.record) this.sent.push(chunk.toString('latin1'));
      if (this.cutAtCommit > 0 && endsWith(chunk, ENDS_WITH_COMMIT)) {
        this.cutAtCommit -= 1;
        this.cutCommits += 1;
        upstream.write(chunk);
        // the server gets the COMMIT; the client never hears back
        upstream.removeAllListeners('data');
        client.destroy();
        if (this.outageAfterCut) this.outage();
        return;
      }
      upstream.write(chunk);
    });
  }

  /**
   * Cuts the next `n` connections that send a COMMIT, right after the server got it; with
   * `thenOutage`, the cut also starts an outage in the same step (until {@link PgProxy.restore}).
   */
  cutAfterCommit(n = 1, options: { readonly thenOutage?: boolean } = {}): void {
    this.cutAtCommit = n;
    this.outageAfterCut = options.thenOutage === true;
  }

  /** An outage: every connection is dropped and new ones are refused, until {@link PgProxy.restore}. */
  outage(): void {
    this.down = true;
    this.outageAfterCut = false;
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /** Ends the outage. */
  restore(): void {
    this.down = false;
  }

  /** Stops the proxy and drops every connection. */
  async close(): Promise<void> {
    this.outage();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Whether `chunk` ends with `tail` (the last chunk of a message the client sent). */
function endsWith(chunk: Buffer, tail: Buffer): boolean {
  return chunk.length >= tail.length && chunk.subarray(chunk.length - tail.length).equals(tail);
}
