import type { Limits, Runtime } from '@cohort/runtime';
import { defaultLimits } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import type { Store } from '@cohort/store';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Subscription } from 'rxjs';
import { McpClient } from './McpClient.ts';

/**
 * An MCP transport: any of the SDK's (`StdioServerTransport`, `StreamableHTTPServerTransport`,
 * `InMemoryTransport`, …). Declared here by its shape, so that this package's declarations do
 * not pull the SDK's into every program that uses them.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** What {@link SkillbookMcp.connect} may be told. */
export interface ConnectOptions {
  /** Called when the client went idle past the timeout, after its tasks were dropped (an HTTP session is then closed). */
  readonly onIdle?: () => void;
}

/** How a {@link SkillbookMcp} serves. */
export interface SkillbookMcpOptions {
  /** The runtime whose root book the clients read and whose sessions their tasks are. */
  readonly runtime: Runtime;
  /** The runtime's store: the server follows its `external$` (other writers) to notify clients. */
  readonly store?: Store;
  /**
   * What every argument is checked against before it reaches the runtime (which checks its own
   * again): give the runtime's limits when it has others than {@link defaultLimits}.
   */
  readonly limits?: Limits;
  /** No task or write tools: reading only. */
  readonly readOnly?: boolean;
  /** Drop a client's open tasks after this many ms without a request from it; 0 never (default 300,000). */
  readonly idleTimeoutMs?: number;
  /** Open tasks one client may hold (default 32). */
  readonly maxTasksPerClient?: number;
  /** The server's version, as `initialize` reports it. */
  readonly version?: string;
  /** Where the server says what it did: clients connecting and leaving, drafts dropped. Default: nowhere. */
  readonly log?: (line: string) => void;
}

/**
 * The Skillbook over the Model Context Protocol: every client that {@link SkillbookMcp.connect}s
 * gets its own MCP server on its transport — reading tools, task tools whose tasks are root
 * sessions of `runtime`, resources — and is told when the book changes, by its own commits,
 * another client's, or another writer's (a process on the same file, ACE, another replica).
 *
 * @example
 * ```ts
 * const rt = createRuntime();
 * const mcp = new SkillbookMcp({ runtime: rt });
 * await mcp.connect(new StdioServerTransport());
 * ```
 */
export class SkillbookMcp {
  private readonly clients = new Set<McpClient>();
  private readonly subscriptions: Subscription[] = [];
  private readonly ctx: McpClient['ctx'];
  private seen: Skillbook;
  private checking = false;
  private connected = 0;

  constructor(private readonly options: SkillbookMcpOptions) {
    const rt = options.runtime;
    this.ctx = {
      runtime: rt,
      limits: options.limits ?? defaultLimits,
      readOnly: options.readOnly === true,
      idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
      maxTasksPerClient: options.maxTasksPerClient ?? 32,
      version: options.version ?? '0.1.0',
      log: options.log ?? (() => {}),
    };
    this.seen = rt.book;
    this.subscriptions.push(rt.events$.subscribe(() => this.check()));
    const external = options.store?.external$;
    if (external) this.subscriptions.push(external.subscribe(() => this.check()));
  }

  /** The clients connected now. */
  get clientCount(): number {
    return this.clients.size;
  }

  /** Serves one client on `transport` (stdio, Streamable HTTP, in memory). Resolves once it is connected. */
  async connect(transport: McpTransport, options: ConnectOptions = {}): Promise<void> {
    const client = new McpClient(this.ctx, ++this.connected);
    client.onIdle = options.onIdle ?? null;
    this.clients.add(client);
    const onclose = client.server.server.onclose;
    client.server.server.onclose = () => {
      this.clients.delete(client);
      onclose?.();
    };
    // the SDK's transports have this shape: its own type is kept out of this package's declarations
    await client.connect(transport as Transport);
  }

  /**
   * The runtime's root book moves on after a merge of ours (an event) or a book from another
   * writer (`external$`, which the runtime takes in first): a look on the next turn of the
   * event loop finds the new book, and every client is told.
   */
  private check(): void {
    if (this.checking) return;
    this.checking = true;
    setImmediate(() => {
      this.checking = false;
      const now = this.options.runtime.book;
      if (now === this.seen) return;
      const before = this.seen;
      this.seen = now;
      for (const client of this.clients) void client.bookChanged(before, now);
    });
  }

  /** Disconnects every client (their open tasks dropped) and stops following the book. The runtime stays open. */
  async close(): Promise<void> {
    for (const s of this.subscriptions) s.unsubscribe();
    await Promise.all([...this.clients].map((c) => c.close()));
    this.clients.clear();
  }
}
