import { basename, dirname, join } from 'node:path';
import type { StoreClock } from '../../StoreClock.ts';
import { sleepOn } from '../../StoreClock.ts';
import type { StoreFs } from '../../StoreFs.ts';
import { fsErrorCode } from '../../StoreFs.ts';
import { LockHolderSchema } from '../../StoreNotice.ts';
import type { LockHolder } from '../../StoreNotice.ts';
import { writeFresh } from './atomicWrite.ts';
import { utf8 } from './digest.ts';
import { parseJsonBytes } from './parseJsonBytes.ts';

/** Who this process is, for the lock file, and how to tell whether another process is alive. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** Whether a process of this host with this pid is alive (a zombie counts as alive). */
  isAlive(pid: number): boolean;
}

/** The outcome of {@link WriterLock.acquire}. */
export type LockAttempt =
  | { readonly ok: true; readonly takeover: { readonly previous: LockHolder; readonly reason: 'dead_process' | 'lease_expired' } | null }
  | { readonly ok: false; readonly holder: LockHolder | null; readonly message: string };

/** How long to wait and how long a lease lasts. */
export interface LockTiming {
  readonly leaseMs: number;
  readonly waitMs: number;
}

/**
 * The writer lock: a file created exclusively, holding pid, host, writer id and a lease
 * generation. One process writes at a time; the lock is held only for a write (a group
 * commit, a checkpoint). A lock whose process is dead (same host) or whose lease expired is
 * stale and taken over, with the generation bumped; otherwise the caller waits up to
 * `waitMs`, then gets a structured refusal naming the holder.
 */
export class WriterLock {
  private held: LockHolder | null = null;
  private generation = 0;
  private unreadable: { fingerprint: string; since: number } | null = null;

  constructor(
    private readonly fs: StoreFs,
    readonly path: string,
    private readonly writerId: string,
    private readonly identity: ProcessIdentity,
    private readonly clock: StoreClock,
    private readonly timing: LockTiming,
  ) {}

  get holding(): LockHolder | null {
    return this.held;
  }

  /** Takes the lock, waiting for a live holder up to `waitMs` (default: the configured wait). */
  async acquire(waitMs: number = this.timing.waitMs): Promise<LockAttempt> {
    const deadline = this.clock.now() + waitMs;
    let backoff = 2;
    let takeover: { previous: LockHolder; reason: 'dead_process' | 'lease_expired' } | null = null;
    for (;;) {
      const mine: LockHolder = {
        pid: this.identity.pid,
        host: this.identity.host,
        writerId: this.writerId,
        generation: this.generation + 1,
        acquiredAt: this.clock.now(),
        leaseMs: this.timing.leaseMs,
      };
      if (await this.tryCreate(mine)) return { ok: true, takeover };
      const existing = await this.readHolder();
      if (existing !== 'missing') {
        if (existing) this.generation = Math.max(this.generation, existing.generation);
        const reason = existing ? this.staleReason(existing) : await this.unreadableStale();
        if (reason && existing && (await this.removeStale(existing))) {
          takeover = { previous: existing, reason };
          continue;
        }
        if (this.clock.now() >= deadline) {
          const who = existing ? `pid ${existing.pid} on ${existing.host} (writer ${existing.writerId})` : 'an unreadable lock file';
          return { ok: false, holder: existing, message: `the document is locked by ${who}: ${this.path}` };
        }
      }
      await sleepOn(this.clock, backoff);
      backoff = Math.min(backoff * 2, 50);
    }
  }

  /** Whether the lock file still names this writer's lease (a fencing check before a write that matters). */
  async verify(): Promise<boolean> {
    const held = this.held;
    if (!held) return false;
    const current = await this.readHolder();
    return current !== 'missing' && current !== null && current.writerId === held.writerId && current.generation === held.generation;
  }

  /** Gives the lock up, if it is still ours. */
  async release(): Promise<void> {
    if (!this.held) return;
    const ours = await this.verify();
    this.held = null;
    if (!ours) return;
    try {
      await this.fs.unlink(this.path);
    } catch (error) {
      if (fsErrorCode(error) !== 'ENOENT') throw error;
    }
  }

  /**
   * Creates the lock file whole: written under a temporary name first, then linked to the
   * lock's name (atomic, and refused when the lock exists), so a process killed mid-way
   * never leaves a half-written lock behind.
   */
  private async tryCreate(holder: LockHolder): Promise<boolean> {
    const tmp = `${this.path}.${this.writerId}.tmp`;
    try {
      await writeFresh(this.fs, tmp, utf8(JSON.stringify(holder)));
    } catch (error) {
      // another process with this writer id is creating the same temporary file: try again
      if (fsErrorCode(error) === 'EEXIST') return false;
      throw error;
    }
    try {
      await this.fs.link(tmp, this.path);
    } catch (error) {
      const code = fsErrorCode(error);
      if (code === 'EEXIST' || code === 'ENOENT') return false;
      throw error;
    } finally {
      await this.fs.unlink(tmp).catch(() => undefined);
    }
    this.held = holder;
    this.generation = holder.generation;
    await this.sweep();
    return true;
  }

  /** Removes temporary lock files that killed processes left behind. */
  private async sweep(): Promise<void> {
    const name = basename(this.path);
    for (const entry of await this.fs.readdir(dirname(this.path))) {
      if (entry.startsWith(`${name}.`) && entry.endsWith('.tmp'))
        await this.fs.unlink(join(dirname(this.path), entry)).catch(() => undefined);
    }
  }

  private async readHolder(): Promise<LockHolder | null | 'missing'> {
    const bytes = await this.fs.readFile(this.path);
    if (!bytes) return 'missing';
    // null: being written, or damaged; judged by how long it stays so
    const holder = parseHolder(bytes);
    if (holder) this.unreadable = null;
    return holder;
  }

  private staleReason(holder: LockHolder): 'dead_process' | 'lease_expired' | null {
    if (holder.host === this.identity.host && !this.identity.isAlive(holder.pid)) return 'dead_process';
    if (this.clock.now() - holder.acquiredAt > holder.leaseMs) return 'lease_expired';
    return null;
  }

  /** An unreadable lock file is stale once it has stayed the same for a whole lease. */
  private async unreadableStale(): Promise<'lease_expired' | null> {
    const stat = await this.fs.stat(this.path);
    if (!stat) return null;
    const now = this.clock.now();
    if (!this.unreadable || this.unreadable.fingerprint !== stat.fingerprint) {
      this.unreadable = { fingerprint: stat.fingerprint, since: now };
      return null;
    }
    if (now - this.unreadable.since <= this.timing.leaseMs) return null;
    await this.fs.unlink(this.path).catch(() => undefined);
    this.unreadable = null;
    return null;
  }

  /**
   * Moves a stale lock file aside and checks that what was moved is the lease judged stale;
   * if a fresh lock was moved instead (another process took over first), it is put back.
   */
  private async removeStale(stale: LockHolder): Promise<boolean> {
    const aside = `${this.path}.stale-${this.writerId}`;
    try {
      await this.fs.rename(this.path, aside);
    } catch (error) {
      if (fsErrorCode(error) === 'ENOENT') return true;
      throw error;
    }
    const bytes = await this.fs.readFile(aside);
    const moved = bytes ? parseHolder(bytes) : null;
    const same = moved !== null && moved.writerId === stale.writerId && moved.generation === stale.generation;
    if (same) {
      await this.fs.unlink(aside).catch(() => undefined);
      return true;
    }
    await this.fs.rename(aside, this.path).catch(() => undefined);
    return false;
  }
}

function parseHolder(bytes: Uint8Array): LockHolder | null {
  return parseJsonBytes(bytes, LockHolderSchema);
}

/** Whether a process with `pid` is alive on this host (`kill(pid, 0)`). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return fsErrorCode(error) === 'EPERM';
  }
}
