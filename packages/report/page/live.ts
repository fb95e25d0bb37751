import type { LiveMessage } from '../src/LiveMessage.ts';
import type { Recording, RunRecord, SessionRecord } from '../src/Recording.ts';
import type { App } from './app.ts';

/**
 * Keeps the page's recording in step with the live view's event stream: a `snapshot`
 * replaces it, a `patch` replaces the sessions it names and appends new notices and marks.
 * The browser reconnects on its own after a drop, and the server answers with a snapshot.
 */
export function followLive(app: App, url: string): EventSource {
  const positions = new Map<string, Map<string, number>>();
  const source = new EventSource(url);
  source.addEventListener('snapshot', (e) => {
    const message = JSON.parse((e as MessageEvent<string>).data) as Extract<LiveMessage, { type: 'snapshot' }>;
    app.recording = message.recording;
    positions.clear();
    settle(app, message.recording);
  });
  source.addEventListener('patch', (e) => {
    const message = JSON.parse((e as MessageEvent<string>).data) as Extract<LiveMessage, { type: 'patch' }>;
    const run = app.recording.runs.find((r) => r.id === message.runId);
    if (!run) return;
    applyPatch(run, message, positionsOf(positions, run));
    settle(app, app.recording);
  });
  source.addEventListener('open', () => {
    if (app.live !== 'finished') app.live = 'live';
    app.update();
  });
  source.addEventListener('error', () => {
    if (app.live !== 'finished') app.live = 'disconnected';
    app.update();
  });
  return source;
}

function settle(app: App, recording: Recording): void {
  const finished = recording.runs.length > 0 && recording.runs.every((r) => r.endedAt !== null);
  app.live = finished ? 'finished' : 'live';
  app.update();
}

function applyPatch(run: RunRecord, patch: Extract<LiveMessage, { type: 'patch' }>, at: Map<string, number>): void {
  const sessions = run.sessions as SessionRecord[];
  for (const session of patch.sessions) {
    const i = at.get(session.id);
    if (i === undefined) {
      at.set(session.id, sessions.length);
      sessions.push(session);
    } else sessions[i] = session;
  }
  (run.notices as unknown[]).push(...patch.notices);
  (run.marks as unknown[]).push(...patch.marks);
  const mutable = run as { -readonly [K in keyof RunRecord]: RunRecord[K] };
  mutable.supervisor = patch.supervisor;
  mutable.endedAt = patch.endedAt;
}

function positionsOf(all: Map<string, Map<string, number>>, run: RunRecord): Map<string, number> {
  let map = all.get(run.id);
  if (!map) {
    map = new Map(run.sessions.map((s, i) => [s.id, i]));
    all.set(run.id, map);
  }
  return map;
}
