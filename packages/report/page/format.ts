import type { SessionRecord } from '../src/Recording.ts';

/** A duration for people: `840 µs`, `12 ms`, `3.4 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${+ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A time relative to the run's start: `+12 ms`. */
export function offset(at: number, start: number): string {
  return at < start ? `−${duration(start - at)}` : `+${duration(at - start)}`;
}

/** A session's label: its name, or its id. */
export function label(session: SessionRecord): string {
  return session.name ?? session.id;
}

/** How long a session lived (until `now` while live). */
export function lifetime(session: SessionRecord, now: number): number {
  return (session.endedAt ?? now) - session.spawnedAt;
}

/** A session's status in words: `committed`, `failed · crashed`, `running`. */
export function statusText(session: SessionRecord): string {
  return session.failure ? `failed · ${session.failure.kind}` : session.status;
}

/** `1 op`, `3 ops`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The workers a session's body ran on, in order (`worker-1 → worker-2`), or null when no worker was named. */
export function workerChain(session: SessionRecord): string | null {
  const resumes = session.resumes ?? [];
  const first = resumes[0]?.previous;
  const chain = [...(first ? [first] : []), ...resumes.map((r) => r.worker)];
  if (chain.length === 0) return session.worker ?? null;
  return chain.join(' → ');
}
