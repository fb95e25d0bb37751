import { dirname } from 'node:path';
import { fsError } from '../../StoreFs.ts';

/** One file's content: what a reader sees (`data`) and what survives a power loss (`synced`). */
interface Inode {
  data: Uint8Array;
  synced: Uint8Array;
  version: number;
}

type DirOp =
  | { readonly kind: 'link'; readonly path: string; readonly inode: number }
  | { readonly kind: 'unlink'; readonly path: string }
  | { readonly kind: 'rename'; readonly path: string; readonly from: string; readonly inode: number };

/** How much of the unsynced state a power loss keeps; see {@link SimDisk.powerLoss}. */
export interface TearPolicy {
  /** Bytes kept of `unsynced` bytes appended to `path` since its last fsync (0 … unsynced). */
  bytes(path: string, unsynced: number): number;
  /** Directory operations kept (in order) of `pending` not yet made durable by a directory fsync. */
  dirOps(dir: string, pending: number): number;
}

/**
 * A deterministic pseudo-random source (mulberry32): numbers in `[0, 1)`, the same for the same
 * seed. `SimFs` tears writes with it; tests that drive a store choose with it.
 *
 * @example
 * const random = seededRandom(7);
 * const pick = Math.floor(random() * 3);
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > data.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (data[i] !== prefix[i]) return false;
  return true;
}

/**
 * The data model behind {@link SimFs}: inodes, a visible namespace and a durable one, and the
 * directory operations still waiting for a directory fsync. A power loss keeps, per file, a
 * prefix of what was appended since the last fsync and, per directory, a prefix of the
 * pending operations (journalling file systems keep metadata in order).
 */
export class SimDisk {
  private readonly inodes = new Map<number, Inode>();
  private names = new Map<string, number>();
  private durable = new Map<string, number>();
  private readonly pending = new Map<string, DirOp[]>();
  private readonly dirs = new Set<string>(['/', '.']);
  private nextInode = 1;
  /** The most file data the disk holds (`null`: no limit). */
  capacity: number | null = null;

  /** Bytes of file data the visible names hold (a file under two names counts once). */
  used(): number {
    let total = 0;
    for (const id of new Set(this.names.values())) total += this.inodes.get(id)?.data.length ?? 0;
    return total;
  }

  /** How many of `wanted` new bytes fit (all of them when there is no limit). */
  private room(wanted: number): number {
    return this.capacity === null ? wanted : Math.max(0, Math.min(wanted, this.capacity - this.used()));
  }

  private inode(path: string): Inode {
    const id = this.names.get(path);
    const node = id === undefined ? undefined : this.inodes.get(id);
    if (!node) throw fsError('ENOENT', `no such file: ${path}`, path);
    return node;
  }

  private record(op: DirOp): void {
    const dir = dirname(op.path);
    const list = this.pending.get(dir) ?? [];
    list.push(op);
    this.pending.set(dir, list);
  }

  private requireDir(path: string): void {
    if (!this.dirs.has(dirname(path))) throw fsError('ENOENT', `no such directory: ${dirname(path)}`, path);
  }

  exists(path: string): boolean {
    return this.names.has(path);
  }

  read(path: string): Uint8Array | undefined {
    const id = this.names.get(path);
    return id === undefined ? undefined : this.inodes.get(id)?.data;
  }

  stat(path: string): { kind: 'file' | 'directory'; size: number; identity: string; fingerprint: string } | undefined {
    const id = this.names.get(path);
    const node = id === undefined ? undefined : this.inodes.get(id);
    if (!node) return this.dirs.has(path) ? { kind: 'directory', size: 0, identity: `dir:${path}`, fingerprint: `dir:${path}` } : undefined;
    return { kind: 'file', size: node.data.length, identity: `${id}`, fingerprint: `${id}:${node.version}` };
  }

  list(dir: string): string[] {
    const out: string[] = [];
    for (const path of this.names.keys()) if (dirname(path) === dir) out.push(path.slice(dir.length + 1));
    return out.sort();
  }

  mkdir(dir: string): void {
    for (let d = dir; !this.dirs.has(d); d = dirname(d)) this.dirs.add(d);
  }

  /**
   * Creates or truncates `path` and writes `data`; a new file gets a new inode. On a full disk
   * (see `capacity`) the file keeps what fits and the write fails with `ENOSPC`, as `write(2)` does.
   */
  write(path: string, data: Uint8Array, exclusive: boolean): void {
    this.requireDir(path);
    const id = this.names.get(path);
    if (id !== undefined && exclusive) throw fsError('EEXIST', `file exists: ${path}`, path);
    if (id === undefined) {
      const fresh = this.nextInode++;
      this.inodes.set(fresh, { data: new Uint8Array(0), synced: new Uint8Array(0), version: 1 });
      this.names.set(path, fresh);
      this.record({ kind: 'link', path, inode: fresh });
    } else {
      const node = this.inode(path);
      node.data = new Uint8Array(0);
      node.version += 1;
    }
    this.append(path, data);
  }

  append(path: string, data: Uint8Array): void {
    if (!this.names.has(path)) this.write(path, new Uint8Array(0), false);
    const node = this.inode(path);
    const fits = this.room(data.length);
    node.data = concat(node.data, fits === data.length ? data : data.subarray(0, fits));
    node.version += 1;
    if (fits < data.length) throw fsError('ENOSPC', `no space left on device: ${path}`, path);
  }

  truncate(path: string, size: number): void {
    const node = this.inode(path);
    node.data = node.data.slice(0, size);
    node.version += 1;
  }

  sync(path: string): void {
    const node = this.inode(path);
    node.synced = node.data.slice();
  }

  rename(from: string, to: string): void {
    const id = this.names.get(from);
    if (id === undefined) throw fsError('ENOENT', `no such file: ${from}`, from);
    this.requireDir(to);
    this.names.delete(from);
    this.names.set(to, id);
    // a rename is one journalled operation: after a crash, either both names changed or neither
    this.record({ kind: 'rename', path: to, from, inode: id });
  }

  link(existing: string, path: string): void {
    const id = this.names.get(existing);
    if (id === undefined) throw fsError('ENOENT', `no such file: ${existing}`, existing);
    if (this.names.has(path)) throw fsError('EEXIST', `file exists: ${path}`, path);
    this.requireDir(path);
    this.names.set(path, id);
    this.record({ kind: 'link', path, inode: id });
  }

  unlink(path: string): void {
    if (!this.names.delete(path)) throw fsError('ENOENT', `no such file: ${path}`, path);
    this.record({ kind: 'unlink', path });
  }

  syncDir(dir: string): void {
    if (!this.dirs.has(dir)) throw fsError('ENOENT', `no such directory: ${dir}`, dir);
    for (const op of this.pending.get(dir) ?? []) this.applyDurable(op);
    this.pending.delete(dir);
  }

  private applyDurable(op: DirOp): void {
    if (op.kind === 'unlink') this.durable.delete(op.path);
    else {
      if (op.kind === 'rename') this.durable.delete(op.from);
      this.durable.set(op.path, op.inode);
    }
  }

  /** A power loss: keeps what the policy says of the unsynced state; the rest is gone. */
  powerLoss(policy: TearPolicy): void {
    for (const [dir, ops] of this.pending) {
      const keep = Math.max(0, Math.min(ops.length, policy.dirOps(dir, ops.length)));
      for (const op of ops.slice(0, keep)) this.applyDurable(op);
    }
    this.pending.clear();
    this.names = new Map(this.durable);
    const live = new Set(this.names.values());
    for (const [id, node] of this.inodes) {
      if (!live.has(id)) {
        this.inodes.delete(id);
        continue;
      }
      const path = [...this.names].find(([, i]) => i === id)?.[0] ?? '';
      node.data = this.survivor(path, node, policy);
      node.synced = node.data.slice();
      node.version += 1;
    }
  }

  private survivor(path: string, node: Inode, policy: TearPolicy): Uint8Array {
    if (startsWith(node.data, node.synced)) {
      const extra = node.data.length - node.synced.length;
      const keep = Math.max(0, Math.min(extra, policy.bytes(path, extra)));
      return node.data.slice(0, node.synced.length + keep);
    }
    // rewritten or cut in place since the last fsync: either the old bytes or a prefix of the new
    const keep = policy.bytes(path, node.data.length);
    return keep >= node.data.length ? node.data.slice() : keep <= 0 ? node.synced.slice() : node.data.slice(0, keep);
  }

  /** Makes everything durable, as a clean shutdown of the machine would. */
  flushAll(): void {
    for (const dir of [...this.pending.keys()]) this.syncDir(dir);
    for (const node of this.inodes.values()) node.synced = node.data.slice();
  }
}
