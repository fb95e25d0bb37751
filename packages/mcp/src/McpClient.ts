import type { Runtime } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import { withoutLoneSurrogates } from '@cohort/skillbook';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Limits } from '@cohort/runtime';
import { registerResources } from './registerResources.ts';
import { BOOK_URI, skillOfUri } from './resourceUris.ts';
import { registerTools } from './registerTools.ts';
import type { TaskResult } from './TaskSession.ts';
import { TaskSession } from './TaskSession.ts';

/** What every client of one server shares. */
export interface McpClientContext {
  readonly runtime: Runtime;
  readonly limits: Limits;
  readonly readOnly: boolean;
  /** Drop a client's open tasks after this long without a request from it (0: never). */
  readonly idleTimeoutMs: number;
  readonly maxTasksPerClient: number;
  readonly version: string;
  log(line: string): void;
}

/** Tasks that ended, kept so that a late call on one says why (bounded). */
const ENDED_KEPT = 100;
/** Resources one client may subscribe to. */
const MAX_SUBSCRIPTIONS = 10_000;

/**
 * One connected MCP client: its own `McpServer` on its transport, its open tasks (each a root
 * session of the shared runtime), its resource subscriptions and its idle timer. When the
 * transport closes, or the client stays idle past the timeout, its open tasks are aborted —
 * their drafts dropped, nothing written — and the log says so.
 */
export class McpClient {
  readonly server: McpServer;
  private readonly tasks = new Map<string, TaskSession>();
  private readonly endedTasks = new Map<string, string>();
  private readonly subscriptions = new Set<string>();
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Told when the client went idle past the timeout (an HTTP session is then closed). */
  onIdle: (() => void) | null = null;

  constructor(
    readonly ctx: McpClientContext,
    private readonly number: number,
  ) {
    this.server = new McpServer(
      { name: 'cohort-skillbook', version: ctx.version },
      { capabilities: { resources: { subscribe: true, listChanged: true } } },
    );
    registerTools(this);
    registerResources(this);
    this.server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      this.touch();
      if (this.subscriptions.size >= MAX_SUBSCRIPTIONS && !this.subscriptions.has(request.params.uri)) {
        throw new McpError(ErrorCode.InvalidParams, `at most ${MAX_SUBSCRIPTIONS} subscriptions per client`);
      }
      this.subscriptions.add(request.params.uri);
      return {};
    });
    this.server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      this.touch();
      this.subscriptions.delete(request.params.uri);
      return {};
    });
    this.server.server.onclose = () => void this.dropAll('disconnected');
  }

  /** Serves this client on `transport`. */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    this.touch();
  }

  /** The client as the audit and the log name it: its own name (from `initialize`) and its number. */
  get label(): string {
    const raw = this.server.server.getClientVersion()?.name ?? 'client';
    const name = withoutLoneSurrogates(raw)
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .slice(0, 64);
    return `${name || 'client'}#${this.number}`;
  }

  /** A request arrived: the idle clock starts again. */
  touch(): void {
    if (this.closed || this.ctx.idleTimeoutMs <= 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.idle(), this.ctx.idleTimeoutMs);
    this.idleTimer.unref();
  }

  private idle(): void {
    this.idleTimer = null;
    void this.dropAll(`idle for ${Math.round(this.ctx.idleTimeoutMs / 1000)} s`);
    this.onIdle?.();
  }

  /** Starts a task of this client. */
  async begin(name: string | undefined): Promise<TaskSession | { readonly error: string }> {
    if (this.tasks.size >= this.ctx.maxTasksPerClient) {
      return { error: `at most ${this.ctx.maxTasksPerClient} open tasks per client: commit or abort one first` };
    }
    const taskName = withoutLoneSurrogates(name ?? `task-${this.tasks.size + this.endedTasks.size + 1}`);
    const started = await TaskSession.begin(this.ctx.runtime, `${this.label}/${taskName}`);
    if ('error' in started) return started;
    this.tasks.set(started.id, started);
    return started;
  }

  /** This client's open task `id`, or why there is none. */
  task(id: string): TaskSession | { readonly error: string } {
    const task = this.tasks.get(id);
    if (task) return task;
    const ended = this.endedTasks.get(id);
    return { error: ended ? `task ${id} has ended: ${ended}` : `no open task ${id} (task.begin starts one)` };
  }

  /** The open tasks, oldest first. */
  openTasks(): readonly TaskSession[] {
    return [...this.tasks.values()];
  }

  /** Commits or aborts task `id`, and forgets it. */
  async end(task: TaskSession, how: 'commit' | 'abort', reason = 'aborted by the client'): Promise<TaskResult> {
    const result = how === 'commit' ? await task.commit() : await task.abort(reason);
    this.tasks.delete(task.id);
    this.endedTasks.set(task.id, result.status === 'committed' ? 'committed' : `${result.status}${how === 'abort' ? ` (${reason})` : ''}`);
    if (this.endedTasks.size > ENDED_KEPT) this.endedTasks.delete(this.endedTasks.keys().next().value ?? '');
    return result;
  }

  /** Aborts every open task of this client, saying why in the log. */
  async dropAll(why: string): Promise<void> {
    if (why === 'disconnected') {
      if (this.closed) return;
      this.closed = true;
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.ctx.log(`${this.label} disconnected`);
    }
    const open = [...this.tasks.values()];
    const results = await Promise.all(open.map((t) => this.end(t, 'abort', `the client ${why}`)));
    for (const r of results) {
      this.ctx.log(`${this.label} ${why}: dropped task ${r.task} (${r.name}), ${r.discarded} op(s) not written`);
    }
  }

  /** Tells the client of a new book: the resources it subscribed to that changed, and the list when skills came or went. */
  async bookChanged(before: Skillbook, after: Skillbook): Promise<void> {
    if (this.closed) return;
    const sends: Promise<void>[] = [];
    for (const uri of this.subscriptions) {
      const id = uri === BOOK_URI ? null : skillOfUri(uri);
      if (uri !== BOOK_URI && (id === null || JSON.stringify(before.get(id)) === JSON.stringify(after.get(id)))) continue;
      sends.push(this.server.server.sendResourceUpdated({ uri }));
    }
    if (before.size !== after.size || before.stats().active_skills !== after.stats().active_skills) {
      sends.push(this.server.server.sendResourceListChanged());
    }
    await Promise.all(sends.map((p) => p.catch(() => {})));
  }

  /** Closes the connection (its open tasks are dropped). */
  async close(): Promise<void> {
    await this.dropAll('disconnected');
    await this.server.close().catch(() => {});
  }
}
