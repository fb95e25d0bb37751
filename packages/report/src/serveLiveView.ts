import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Subscription } from 'rxjs';
import type { Clock } from '@cohort/runtime';
import type { InspectionTap } from './InspectionTap.ts';
import type { LiveMessage } from './LiveMessage.ts';
import { RunRecorder } from './RunRecorder.ts';
import type { RunProgress } from './internal/RunState.ts';
import type { AttachOptions, RecordableRuntime } from './RunRecorder.ts';
import { pageHtml } from './internal/pageHtml.ts';
import { refusedRequest } from './internal/localRequest.ts';
import { renderRunReport } from './writeRunReport.ts';

/** Options of {@link serveLiveView}. */
export interface LiveViewOptions {
  /** The port on 127.0.0.1 (default 0: any free port; read it from `url`). */
  readonly port?: number;
  /** The page's title (default `Cohort live view`). */
  readonly title?: string;
  /** The run's name in the page (default `live run`). */
  readonly label?: string;
  /** The runtime's inspection tap, for live machine states and the root supervisor. */
  readonly inspection?: InspectionTap;
  /** The runtime's clock, when it has one of its own (default: the real clock). */
  readonly clock?: Clock;
  /** How often changes are pushed to the page, at most (default 100 ms). */
  readonly flushMs?: number;
  /** How many pages may follow the event stream at once (default 64); one more gets 503. */
  readonly maxClients?: number;
}

/** A running live view; `close()` releases the port and every subscription. */
export interface LiveView {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  /** What the view has recorded so far (also served as `/recording.json` and `/report.html`). */
  readonly recorder: RunRecorder;
  /**
   * Adds another runtime to the view as a run of its own (the page lists every run it has seen;
   * an ended one stays there to be looked at). Returns the run's id.
   */
  attach(rt: RecordableRuntime, options?: AttachOptions): string;
  close(): Promise<void>;
}

/** A run as `GET /runs.json` lists it. */
export interface RunSummary {
  readonly id: string;
  readonly label: string;
  readonly startedAt: number;
  /** Null while the run goes on. */
  readonly endedAt: number | null;
  readonly sessions: number;
  readonly failed: number;
}

/**
 * Serves a live view of a runtime on 127.0.0.1: a page that shows the session tree, each
 * session's machine state and details, the timeline and the book as the run goes, fed by
 * Server-Sent Events from `rt.events$` (`GET /events`). `GET /report.html` is the run report
 * of the run so far, `GET /runs.json` the runs it has seen (`view.attach` adds one). Start it before the runtime runs sessions. It answers only requests for
 * its own address (`Host` 127.0.0.1 or localhost), so another site's page cannot read it.
 *
 * @example
 * const view = await serveLiveView(rt, { port: 4400 });
 * console.log(`watching at ${view.url}`);
 * await rt.run(body);
 * await view.close();
 */
export async function serveLiveView(rt: RecordableRuntime, options: LiveViewOptions = {}): Promise<LiveView> {
  const title = options.title ?? 'Cohort live view';
  const recorder = new RunRecorder({ title, ...(options.clock ? { clock: options.clock } : {}) });
  const hub = new LiveHub(recorder, options.flushMs ?? 100, options.maxClients ?? 64);
  recorder.attach(rt, { label: options.label ?? 'live run', ...(options.inspection ? { inspection: options.inspection } : {}) });
  const server = createServer((req, res) => {
    const refused = refusedRequest(req, (server.address() as AddressInfo).port);
    if (refused) send(res, refused.status, 'text/plain', refused.message);
    else route(req, res, title, hub);
  });
  try {
    await listen(server, options.port ?? 0);
  } catch (err) {
    hub.close();
    recorder.stop();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    recorder,
    attach: (next, attachOptions = {}) => {
      const id = recorder.attach(next, { label: `run ${recorder.recording().runs.length + 1}`, ...attachOptions });
      hub.resync();
      return id;
    },
    close: () => (closed ??= shutdown(server, hub, recorder)),
  };
}

function route(req: IncomingMessage, res: ServerResponse, title: string, hub: LiveHub): void {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (req.method !== 'GET') return send(res, 405, 'text/plain', 'only GET\n');
  if (path === '/') return send(res, 200, 'text/html; charset=utf-8', pageHtml(title, { mode: 'live', events: '/events' }));
  if (path === '/events') return hub.join(res);
  if (path === '/recording.json') return send(res, 200, 'application/json', JSON.stringify(hub.recorder.recording()));
  if (path === '/runs.json') return send(res, 200, 'application/json', JSON.stringify(runSummaries(hub.recorder)));
  if (path === '/report.html') return send(res, 200, 'text/html; charset=utf-8', renderRunReport(hub.recorder.recording()));
  send(res, 404, 'text/plain', 'not found\n');
}

function runSummaries(recorder: RunRecorder): RunSummary[] {
  return recorder.recording().runs.map((r) => ({
    id: r.id,
    label: r.label,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    sessions: r.sessions.length,
    failed: r.sessions.filter((s) => s.status === 'failed').length,
  }));
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`serveLiveView: cannot listen on 127.0.0.1:${port} (${err.code ?? err.message})`, { cause: err })),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

async function shutdown(server: Server, hub: LiveHub, recorder: RunRecorder): Promise<void> {
  hub.close();
  recorder.stop();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * The event-stream clients and what they have not been sent yet. Changes are batched into one
 * patch per run every `flushMs`; a client that joins gets the pending patch flushed to the
 * others first, then a snapshot, so every client sees each change exactly once.
 */
class LiveHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly dirty = new Map<string, Set<string>>();
  private readonly sent = new Map<string, RunProgress>();
  private readonly subscription: Subscription;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(
    readonly recorder: RunRecorder,
    private readonly flushMs: number,
    private readonly maxClients: number,
  ) {
    this.subscription = recorder.changes$.subscribe(({ runId, sessionId }) => {
      let ids = this.dirty.get(runId);
      if (!ids) this.dirty.set(runId, (ids = new Set()));
      if (sessionId !== null) ids.add(sessionId);
      this.timer ??= setTimeout(() => this.flush(), this.flushMs);
    });
    // a comment line now and then keeps proxies and idle timeouts from closing the stream
    this.heartbeat = setInterval(() => this.broadcast(': ping\n\n'), 15_000);
    this.heartbeat.unref();
  }

  join(res: ServerResponse): void {
    if (this.clients.size >= this.maxClients) {
      return send(res, 503, 'text/plain', `the live view already serves ${this.maxClients} pages; close one and reload\n`);
    }
    this.flush();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    res.write(frame({ type: 'snapshot', recording: this.recorder.recording() }));
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  /** Sends every page a fresh snapshot: a run was added, which patches cannot carry. */
  resync(): void {
    this.flush();
    this.broadcast(frame({ type: 'snapshot', recording: this.recorder.recording() }));
  }

  close(): void {
    this.subscription.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    clearInterval(this.heartbeat);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [runId, ids] of this.dirty) {
      const tail = this.recorder.since(runId, this.sent.get(runId) ?? { notices: 0, marks: 0 });
      if (!tail) continue;
      const { progress, ...news } = tail;
      this.sent.set(runId, progress);
      const sessions = [...ids].flatMap((id) => this.recorder.session(runId, id) ?? []);
      this.broadcast(frame({ type: 'patch', runId, sessions, ...news }));
    }
    this.dirty.clear();
  }

  private broadcast(text: string): void {
    for (const res of this.clients) res.write(text);
  }
}

function frame(message: LiveMessage): string {
  return `event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`;
}
