import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { replayHistory } from '@cohort/store';
import type { PersistedCommit } from '@cohort/store';
import { readHistory } from '@cohort/store/testing';
import { PostgresStore } from '@cohort/store-postgres';
import { bundleChild } from '../../../../test/utils/bundleChild.ts';
import type { ChildCommand } from '../../../../test/utils/bundleChild.ts';
import type { ChildOptions, ChildReport } from './runtimeChild.ts';

export type { ChildCommand };

type Ack = Extract<ChildReport, { t: 'ack' }>;

/** A running runtime child and what it printed so far. */
export interface RuntimeChild {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly acks: Ack[];
  readonly fails: Extract<ChildReport, { t: 'fail' }>[];
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** `node <bundle of runtimeChild.ts>` (see `bundleChild`). */
export function runtimeChildCommand(): Promise<ChildCommand> {
  return bundleChild(fileURLToPath(new URL('./runtimeChild.ts', import.meta.url)), 'cohort-pg-child-');
}

/** Starts a child with `options`; `onAck` sees each acknowledgement as it is printed. */
export function startRuntimeChild(command: ChildCommand, options: ChildOptions, onAck?: (ack: Ack) => void): RuntimeChild {
  const proc = spawn(process.execPath, [...command.args, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const acks: Ack[] = [];
  const fails: Extract<ChildReport, { t: 'fail' }>[] = [];
  let pending = '';
  let stderr = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const text = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      // a line cut by a kill is not a line
      let line: ChildReport | null = null;
      try {
        line = JSON.parse(text) as ChildReport;
      } catch {
        line = null;
      }
      if (line?.t === 'ack') {
        acks.push(line);
        onAck?.(line);
      } else if (line?.t === 'fail') fails.push(line);
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    proc.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  return { proc, acks, fails, closed };
}

/**
 * Checks the database against every acknowledgement: the book is the serial replay of the
 * commits table; each acknowledged root commit is there once, at its revision, whole (a block
 * per session that wrote, attributed to that session's path); every id a session was told
 * names the skill it added, and no id was told to two sessions.
 */
export async function verifyAcknowledged(url: string, schema: string, acks: readonly Ack[]): Promise<{ commits: number; skills: number }> {
  const opened = await PostgresStore.open({ url, schema, listen: false, create: false });
  if (!opened.ok) throw new Error(opened.error.message);
  const store = opened.store;
  try {
    const book = store.book;
    const commits = await readHistory(store, 1_000);
    const replayed = replayHistory(commits);
    expect(replayed.ok).toBe(true);
    if (replayed.ok) expect(replayed.book.reserveIds(book.nextId).toJSON()).toBe(book.toJSON());
    const byRoot = new Map<string, PersistedCommit>();
    for (const c of commits) {
      if (c.kind !== 'commit') continue;
      const key = `${c.writerId}/${c.sessionId}`;
      expect(byRoot.has(key), `${key} committed once`).toBe(false);
      byRoot.set(key, c);
      for (const b of c.entries) {
        expect(b.path.slice(0, c.path.length)).toEqual(c.path);
        expect(b.path[b.path.length - 1]).toBe(b.sessionId);
      }
    }
    const owners = new Map<string, string>();
    for (const ack of acks) {
      const c = byRoot.get(`${ack.writer}/${ack.root}`);
      expect(c?.revision, `acknowledged ${ack.writer}/${ack.root} is in the commits table at its revision`).toBe(ack.revision);
      const blocks = new Map((c?.entries ?? []).map((b) => [b.sessionId, b]));
      for (const s of ack.sessions) {
        const block = blocks.get(s.id);
        if (s.adds.length > 0) expect(block?.path, `${ack.writer}/${s.id} has its block`).toEqual(s.path);
        const added = new Set((block?.ops ?? []).filter((op) => op.type === 'ADD').map((op) => op.skill_id));
        for (const [id, issue] of s.adds) {
          expect(owners.has(id), `${id} told to two sessions`).toBe(false);
          owners.set(id, `${ack.writer}/${s.id}`);
          expect(added.has(id), `${id} is in the block of ${ack.writer}/${s.id}`).toBe(true);
          expect(book.get(id)?.issue).toBe(issue);
        }
      }
    }
    return { commits: byRoot.size, skills: book.size };
  } finally {
    await store.close();
  }
}
