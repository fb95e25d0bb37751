import { dirname } from 'node:path';
import { SimDisk, seededRandom } from './internal/disk/SimDisk.ts';
import type { TearPolicy } from './internal/disk/SimDisk.ts';
import type { StoreAppendHandle, StoreFs } from './StoreFs.ts';
import type { ProcessIdentity } from './internal/disk/WriterLock.ts';
import { fsError } from './StoreFs.ts';

/** How a simulated crash treats what was not yet durable. */
export interface SimCrashOptions {
  /**
   * `power` (default): the machine loses power; unsynced bytes and directory operations are
   * torn per {@link SimCrashOptions.tear}. `process`: only the process dies (SIGKILL); every
   * byte it wrote stays visible, as the page cache survives.
   */
  readonly mode?: 'power' | 'process';
  /** Overrides the seeded random tearing of a power loss. */
  readonly tear?: Partial<TearPolicy>;
}

/** A process's view of a {@link SimFs}: a {@link StoreFs} that stops working when the process dies. */
export interface SimMount extends StoreFs {
  /** Kills this process (SIGKILL): its later calls reject with `ESIMCRASH`; nothing written is lost. */
  kill(): void;
  readonly alive: boolean;
  /** This simulated process, for `FileStoreOptions.process`: its own pid on host `sim`, alive until it crashes. */
  readonly process: ProcessIdentity;
}

type PathMatch = string | RegExp | ((path: string) => boolean);

/** A mutating operation, as {@link SimFs.crashOn} sees it. */
export interface SimOp {
  readonly kind: 'write' | 'open' | 'append' | 'sync' | 'truncate' | 'rename' | 'link' | 'unlink' | 'syncDir';
  readonly path: string;
}

/** The chunk size of a simulated {@link StoreFs.readChunks}. */
const SIM_CHUNK_BYTES = 64 * 1024;

function matches(match: PathMatch | undefined, path: string): boolean {
  if (match === undefined) return true;
  if (typeof match === 'string') return path === match;
  if (match instanceof RegExp) return match.test(path);
  return match(path);
}

/**
 * An in-memory, fault-injecting file system for tests and the simulation: it tears unsynced
 * writes on a power loss (seeded), fails an fsync on demand and crashes between any two
 * writes. Each process gets its own {@link SimMount}; a crash kills the mounts, and a new
 * mount (the restarted process) sees what survived.
 *
 * @example
 * ```ts
 * const sim = new SimFs({ seed: 7 });
 * const first = await FileStore.open('/db/book.json', { fs: sim.mount() });
 * sim.crashAfter(3);                // the 4th write from now crashes the machine
 * // … appends fail with code 'io' once the crash hits …
 * const second = await FileStore.open('/db/book.json', { fs: sim.mount() });
 * ```
 */
export class SimFs {
  private readonly disk = new SimDisk();
  private readonly random: () => number;
  private readonly mounts = new Set<{ alive: boolean }>();
  private readonly processes = new Map<number, { alive: boolean }>();
  private opCount = 0;
  private crashAt: { op: number; options: SimCrashOptions } | null = null;
  private crashWhen: { match: (op: SimOp) => boolean; options: SimCrashOptions } | null = null;
  private syncFaults: { match: PathMatch | undefined; times: number }[] = [];
  private readonly counts = new Map<string, number>();

  constructor(options: { readonly seed?: number } = {}) {
    this.random = seededRandom(options.seed ?? 1);
  }

  /** Mutating operations performed so far (writes, appends, fsyncs, renames, …): crash points. */
  get ops(): number {
    return this.opCount;
  }

  /** How many mutating operations of this kind on this path were performed (e.g. fsyncs of the journal). */
  count(kind: SimOp['kind'], path: string): number {
    return this.counts.get(`${kind} ${path}`) ?? 0;
  }

  /** A new process's view of the disk. */
  mount(): SimMount {
    const state = { alive: true };
    this.mounts.add(state);
    const pid = 1000 + this.processes.size;
    this.processes.set(pid, state);
    return this.createMount(state, { pid, host: 'sim', isAlive: (p) => this.processes.get(p)?.alive ?? false });
  }

  /** Crashes after `n` more mutating operations: the next one fails and the crash happens instead. */
  crashAfter(n: number, options: SimCrashOptions = {}): void {
    this.crashAt = { op: this.opCount + n, options };
  }

  /** Whether a crash is scheduled and has not happened yet. */
  get crashPending(): boolean {
    return this.crashAt !== null || this.crashWhen !== null;
  }

  /** Cancels a scheduled crash that has not happened. */
  cancelCrash(): void {
    this.crashAt = null;
    this.crashWhen = null;
  }

  /** Crashes instead of the first mutating operation that `match` accepts (e.g. the fsync of the journal). */
  crashOn(match: (op: SimOp) => boolean, options: SimCrashOptions = {}): void {
    this.crashWhen = { match, options };
  }

  /** Crashes now: every mount dies; a power loss tears the unsynced state. */
  crash(options: SimCrashOptions = {}): void {
    this.crashAt = null;
    this.crashWhen = null;
    for (const m of this.mounts) m.alive = false;
    this.mounts.clear();
    if ((options.mode ?? 'power') === 'power') this.disk.powerLoss(this.policy(options.tear));
  }

  /**
   * Limits the disk to `bytes` of file data (`null`: no limit, as when space is freed): a write
   * or append past it keeps what fits and fails with `ENOSPC`, as on a full disk.
   */
  setCapacity(bytes: number | null): void {
    this.disk.capacity = bytes;
  }

  /** Bytes of file data on the disk now (every visible file, once). */
  get used(): number {
    return this.disk.used();
  }

  /** The next `times` fsyncs of a matching path fail with `EIO` (nothing they covered becomes durable). */
  failSync(options: { readonly path?: PathMatch; readonly times?: number } = {}): void {
    this.syncFaults.push({ match: options.path, times: options.times ?? 1 });
  }

  /** The visible bytes of `path`, as any process would read them. */
  read(path: string): Uint8Array | undefined {
    return this.disk.read(path)?.slice();
  }

  /** The visible text of `path`. */
  readText(path: string): string | undefined {
    const bytes = this.disk.read(path);
    return bytes ? new TextDecoder().decode(bytes) : undefined;
  }

  /**
   * Writes `path` in place and durably, as another program would (ACE's `save_to_file`, an
   * editor): same inode, whole content. Bypasses fault injection.
   */
  write(path: string, data: Uint8Array | string): void {
    this.disk.mkdir(dirname(path));
    this.disk.write(path, typeof data === 'string' ? new TextEncoder().encode(data) : data, false);
    this.disk.sync(path);
    this.disk.syncDir(dirname(path));
  }

  /** The names in `dir`. */
  list(dir: string): string[] {
    return this.disk.list(dir);
  }

  /** Makes everything durable (a clean shutdown). */
  flush(): void {
    this.disk.flushAll();
  }

  private policy(tear: Partial<TearPolicy> | undefined): TearPolicy {
    return {
      bytes: tear?.bytes ?? ((_, n) => Math.floor(this.random() * (n + 1))),
      dirOps: tear?.dirOps ?? ((_, n) => Math.floor(this.random() * (n + 1))),
    };
  }

  /** Counts a mutating operation, crashing instead when one is scheduled here. */
  private step(state: { alive: boolean }, kind: SimOp['kind'], path: string): void {
    if (!state.alive) throw fsError('ESIMCRASH', 'the process has crashed');
    const scheduled = this.crashAt && this.opCount >= this.crashAt.op ? this.crashAt : null;
    const matched = !scheduled && this.crashWhen?.match({ kind, path }) ? this.crashWhen : null;
    const hit = scheduled ?? matched;
    if (hit) {
      const { options } = hit;
      this.crashAt = null;
      this.crashWhen = null;
      if ((options.mode ?? 'power') === 'process') state.alive = false;
      else this.crash(options);
      throw fsError('ESIMCRASH', 'the process crashed before this operation');
    }
    this.opCount += 1;
    this.counts.set(`${kind} ${path}`, (this.counts.get(`${kind} ${path}`) ?? 0) + 1);
  }

  private syncStep(state: { alive: boolean }, path: string, kind: 'sync' | 'syncDir' = 'sync'): void {
    this.step(state, kind, path);
    const fault = this.syncFaults.find((f) => f.times > 0 && matches(f.match, path));
    if (fault) {
      fault.times -= 1;
      this.syncFaults = this.syncFaults.filter((f) => f.times > 0);
      throw fsError('EIO', `fsync failed: ${path}`, path);
    }
  }

  private createMount(state: { alive: boolean }, process: ProcessIdentity): SimMount {
    const disk = this.disk;
    const live = (): void => {
      if (!state.alive) throw fsError('ESIMCRASH', 'the process has crashed');
    };
    const handle = (path: string): StoreAppendHandle => ({
      append: async (data) => {
        this.step(state, 'append', path);
        disk.append(path, data);
      },
      sync: async () => {
        this.syncStep(state, path);
        disk.sync(path);
      },
      close: async () => undefined,
    });
    return {
      process,
      get alive() {
        return state.alive;
      },
      kill: () => {
        state.alive = false;
      },
      readFile: async (path) => (live(), disk.read(path)?.slice()),
      readFrom: async (path, offset) => (live(), disk.read(path)?.slice(offset)),
      readChunks: async (path, onChunk) => {
        live();
        const bytes = disk.read(path)?.slice();
        if (!bytes) return false;
        // small chunks, so that code reading in chunks meets chunk boundaries in tests
        for (let at = 0; at < bytes.length; at += SIM_CHUNK_BYTES) onChunk(bytes.subarray(at, at + SIM_CHUNK_BYTES));
        return true;
      },
      writeFile: async (path, data, options = {}) => {
        this.step(state, 'write', path);
        disk.write(path, data, options.exclusive ?? false);
        if (options.sync) {
          this.syncStep(state, path);
          disk.sync(path);
        }
      },
      openAppend: async (path) => {
        this.step(state, 'open', path);
        disk.append(path, new Uint8Array(0));
        return handle(path);
      },
      truncate: async (path, size) => {
        this.step(state, 'truncate', path);
        disk.truncate(path, size);
        this.syncStep(state, path);
        disk.sync(path);
      },
      rename: async (from, to) => (this.step(state, 'rename', to), disk.rename(from, to)),
      link: async (existing, path) => (this.step(state, 'link', path), disk.link(existing, path)),
      unlink: async (path) => (this.step(state, 'unlink', path), disk.unlink(path)),
      stat: async (path) => (live(), disk.stat(path)),
      realpath: async (path) => (live(), disk.stat(path) ? path : undefined),
      readdir: async (dir) => (live(), disk.list(dir)),
      syncDir: async (dir) => (this.syncStep(state, dir, 'syncDir'), disk.syncDir(dir)),
      mkdir: async (dir) => (live(), disk.mkdir(dir)),
    };
  }
}
