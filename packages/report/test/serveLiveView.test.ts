import { createServer } from 'node:net';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Observable, Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, SessionEventSchema } from '@cohort/runtime';
import type { RuntimeEvent, Session } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import type { StoreNotice } from '@cohort/store';
import { parseRecording, serveLiveView } from '../src/index.ts';
import type { LiveMessage, LiveView, RecordableRuntime, Recording } from '../src/index.ts';
import { liveMessages } from './utils/liveMessages.ts';

/** A runtime stand-in whose events the test emits, counting its subscribers. */
function fakeRuntime(): RecordableRuntime & { emit(e: RuntimeEvent): void; end(): void; subscribers(): number } {
  const subject = new Subject<RuntimeEvent>();
  let subscribers = 0;
  const events$ = new Observable<RuntimeEvent>((observer) => {
    subscribers += 1;
    const sub = subject.subscribe(observer);
    return () => {
      subscribers -= 1;
      sub.unsubscribe();
    };
  });
  return {
    events$,
    book: Skillbook.empty(),
    audit: [],
    emit: (e) => subject.next(e),
    end: () => subject.complete(),
    subscribers: () => subscribers,
  };
}

const spawned = (id: string, at: number): RuntimeEvent =>
  SessionEventSchema.parse({ type: 'session.spawned', sessionId: id, path: [id], at, parentId: null, depth: 0, attempt: 1 });
const saved = (id: string, at: number): StoreNotice => ({
  type: 'store.saved',
  id,
  at,
  document: 'book.json',
  revision: 1,
  digest: 'd',
  reason: 'idle',
  entries: 1,
});

/** Reads Server-Sent Events from the view's `/events`, parsed. */
async function openStream(
  view: LiveView,
): Promise<{ messages: LiveMessage[]; until(ok: (m: LiveMessage[]) => boolean): Promise<void>; cancel(): Promise<void> }> {
  const res = await fetch(`${view.url}events`);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = res.body!.getReader();
  const messages: LiveMessage[] = [];
  let ended = false;
  const pump = (async () => {
    for await (const message of liveMessages(reader)) messages.push(message);
    ended = true;
  })().catch(() => (ended = true));
  return {
    messages,
    until: async (ok) => {
      for (let i = 0; i < 500 && !ok(messages); i++) await new Promise((r) => setTimeout(r, 10));
      expect(ok(messages)).toBe(true);
    },
    cancel: async () => {
      if (!ended) await reader.cancel();
      await pump;
    },
  };
}

/** What a page holds after a snapshot and patches: the sessions by id, the notices. */
function replay(messages: readonly LiveMessage[]): { sessions: Map<string, string>; notices: string[]; endedAt: number | null } {
  let recording: Recording | null = null;
  const sessions = new Map<string, string>();
  const notices: string[] = [];
  let endedAt: number | null = null;
  for (const m of messages) {
    if (m.type === 'snapshot') {
      recording = m.recording;
      for (const s of recording.runs[0]?.sessions ?? []) sessions.set(s.id, s.status);
      notices.push(...(recording.runs[0]?.notices ?? []).map((n) => n.notice.id));
      endedAt = recording.runs[0]?.endedAt ?? null;
    } else {
      for (const s of m.sessions) sessions.set(s.id, s.status);
      notices.push(...m.notices.map((n) => n.notice.id));
      endedAt = m.endedAt;
    }
  }
  return { sessions, notices, endedAt };
}

describe('serveLiveView', () => {
  const opened: LiveView[] = [];
  afterEach(async () => {
    for (const view of opened.splice(0)) await view.close();
  });

  it('serveLiveView - serves its page on 127.0.0.1, the recording so far, and the report of it', async () => {
    const rt = createRuntime();
    const view = await serveLiveView(rt, { title: 'watching' });
    opened.push(view);
    expect(view.url).toBe(`http://127.0.0.1:${view.port}/`);
    await rt.run(async (s: Session) => s.tools.add_skill({ section: 'harness', issue: 'seen live', insight: 'x' }));
    const page = await (await fetch(view.url)).text();
    expect(page).toContain("connect-src 'self'");
    expect(page).toContain('"mode":"live"');
    const parsed = parseRecording(await (await fetch(`${view.url}recording.json`)).text());
    expect(parsed.ok && parsed.recording.runs[0]!.sessions.map((s) => s.status)).toEqual(['committed']);
    const report = await (await fetch(`${view.url}report.html`)).text();
    expect(report).toContain('id="cohort-recording"');
    expect((await fetch(`${view.url}nothing`)).status).toBe(404);
    expect((await fetch(view.url, { method: 'POST' })).status).toBe(405);
    await rt.close();
  });

  it('serveLiveView - the stream is a snapshot, then patches: each change reaches a client once, whenever it joined', async () => {
    const rt = fakeRuntime();
    const view = await serveLiveView(rt, { flushMs: 250 });
    opened.push(view);
    rt.emit(spawned('s1', 1));
    rt.emit(saved('n1', 2));
    const early = await openStream(view);
    await early.until((m) => m.length === 1);
    rt.emit(spawned('s2', 3));
    rt.emit(saved('n2', 4));
    const late = await openStream(view);
    await late.until((m) => m.length === 1);
    rt.emit(
      SessionEventSchema.parse({
        type: 'session.failed',
        sessionId: 's1',
        path: ['s1'],
        at: 5,
        failure: {
          kind: 'crashed',
          category: 'error',
          sessionId: 's1',
          path: ['s1'],
          message: 'boom',
          discarded: { ops: 0, descendants: 0 },
          attempt: 1,
          at: 5,
        },
      }),
    );
    rt.emit(saved('n3', 6));
    rt.end();
    for (const stream of [early, late]) {
      await stream.until((m) => replay(m).endedAt !== null);
      expect(stream.messages[0]!.type).toBe('snapshot');
      const seen = replay(stream.messages);
      expect([...seen.sessions]).toEqual([
        ['s1', 'failed'],
        ['s2', 'running'],
      ]);
      expect(seen.notices).toEqual(['n1', 'n2', 'n3']);
    }
    await early.cancel();
    await late.cancel();
  });

  it('serveLiveView - close() ends open streams, unsubscribes from the runtime and frees the port', async () => {
    const rt = fakeRuntime();
    const view = await serveLiveView(rt);
    expect(rt.subscribers()).toBe(1);
    const stream = await openStream(view);
    await stream.until((m) => m.length === 1);
    await view.close();
    await stream.cancel();
    expect(rt.subscribers()).toBe(0);
    await new Promise<void>((resolve, reject) => {
      const probe = createServer()
        .once('error', reject)
        .listen(view.port, '127.0.0.1', () => probe.close(() => resolve()));
    });
    await view.close();
  });

  it('serveLiveView - a port in use is a clear error, and leaves nothing subscribed', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    const rt = fakeRuntime();
    try {
      await expect(serveLiveView(rt, { port })).rejects.toThrow(`serveLiveView: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
      expect(rt.subscribers()).toBe(0);
    } finally {
      blocker.close();
    }
  });
});

/** A GET with the headers given as they are (fetch would set `Host` itself). */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      if (res.headers['content-type'] === 'text/event-stream')
        return resolve({ status: res.statusCode ?? 0, body, close: () => req.destroy() });
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, close: () => {} }));
    });
    req.once('error', reject).end();
  });
}

describe('serveLiveView - who may read it', () => {
  const opened: LiveView[] = [];
  afterEach(async () => {
    for (const view of opened.splice(0)) await view.close();
  });

  it('serveLiveView - a request for another host is refused, so a page whose name resolves to 127.0.0.1 reads nothing', async () => {
    const view = await serveLiveView(fakeRuntime());
    opened.push(view);
    for (const path of ['/', '/recording.json', '/report.html', '/events']) {
      const refused = await rawGet(view.port, path, { host: `attacker.example:${view.port}` });
      expect(refused.status, path).toBe(421);
      expect(refused.body).toBe(`the live view answers only http://127.0.0.1:${view.port}/ and http://localhost:${view.port}/\n`);
    }
    for (const host of [`127.0.0.1:${view.port}`, `localhost:${view.port}`, `LOCALHOST:${view.port}`]) {
      expect((await rawGet(view.port, '/recording.json', { host })).status, host).toBe(200);
    }
  });

  it('serveLiveView - the event stream refuses another origin and accepts its own page', async () => {
    const view = await serveLiveView(fakeRuntime());
    opened.push(view);
    const host = `127.0.0.1:${view.port}`;
    const refused = await rawGet(view.port, '/events', { host, origin: 'http://attacker.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toBe(`the live view is only for its own page, http://127.0.0.1:${view.port}/\n`);
    expect((await rawGet(view.port, '/events', { host, origin: 'null' })).status).toBe(403);
    const own = await rawGet(view.port, '/events', { host, origin: `http://${host}` });
    expect(own.status).toBe(200);
    own.close();
  });

  it('serveLiveView - event-stream clients are capped: one more is told to come back later', async () => {
    const view = await serveLiveView(fakeRuntime(), { maxClients: 3 });
    opened.push(view);
    const host = `127.0.0.1:${view.port}`;
    const streams = await Promise.all([1, 2, 3].map(() => rawGet(view.port, '/events', { host })));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    const extra = await rawGet(view.port, '/events', { host });
    expect(extra.status).toBe(503);
    expect(extra.body).toBe('the live view already serves 3 pages; close one and reload\n');
    streams[0]!.close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await rawGet(view.port, '/events', { host });
    expect(again.status).toBe(200);
    for (const s of [again, ...streams]) s.close();
  });
});
