/**
 * An append-only list stored as a tree of chunks of at most 64 items (a persistent vector),
 * so that appending inside an immer `produce` copies only the chunks on the path to the last
 * item — O(log₆₄ n), three chunks of 64 at 100,000 items — instead of an array of every id.
 * Used for the document's skill order and each section's id order.
 */

const BITS = 6;
const WIDTH = 1 << BITS;

/** The frozen value. At `height` 0 the root holds the items; above, it holds child chunks. */
export interface ChunkedList<T> {
  readonly length: number;
  readonly height: number;
  readonly root: readonly unknown[];
  /** Phantom: the item type. */
  readonly __item?: T;
}

/** The same shape while it is built or edited (mutable: a fresh list, or through an immer draft). */
export interface MutableChunkedList<T> {
  length: number;
  height: number;
  root: unknown[];
  readonly __item?: T;
}

/** A new empty list (mutable until frozen). */
export function emptyList<T>(): MutableChunkedList<T> {
  return { length: 0, height: 0, root: [] };
}

/**
 * Appends to a draft. `snapshot` turns the current root into a plain value when the tree must
 * grow a level (pass immer's `current` for drafts), so no draft is nested inside a new array.
 */
export function listPush<T>(list: MutableChunkedList<T>, value: T, snapshot: (root: unknown[]) => unknown[]): void {
  if (list.length === WIDTH ** (list.height + 1)) {
    list.root = [snapshot(list.root)];
    list.height += 1;
  }
  let node = list.root;
  for (let level = list.height; level > 0; level--) {
    const index = Math.floor(list.length / WIDTH ** level) % WIDTH;
    if (index === node.length) node.push([]);
    node = node[index] as unknown[];
  }
  node.push(value);
  list.length += 1;
}

/**
 * The frozen list with `items` appended, sharing every chunk before the old last one: the
 * chunks on the path to the last item are copied once (a spread copy), new chunks are made
 * as the list grows — a run of 64 items as one slice, once the list ends on a chunk's end —
 * and all of them are frozen at the end. O(k + log n) for k items.
 */
export function listWithAll<T>(list: ChunkedList<T>, items: readonly T[]): ChunkedList<T> {
  if (items.length === 0) return list;
  const tail = new Tail(list);
  let i = 0;
  while (i < items.length && !tail.atChunkEnd()) tail.push(items[i++] as T);
  for (; i + WIDTH <= items.length; i += WIDTH) tail.pushChunk(items.slice(i, i + WIDTH));
  while (i < items.length) tail.push(items[i++] as T);
  return tail.finish();
}

/** Items under one chunk at `height` (64^height), from a table: `**` is a call to `Math.pow`, twice per level and item. */
function span(height: number): number {
  return SPANS[height] ?? WIDTH ** height;
}

const SPANS: readonly number[] = Array.from({ length: 9 }, (_, height) => WIDTH ** height);

/** Appends to a copy of a list's last path (see {@link listWithAll}). */
class Tail<T> {
  private length: number;
  private height: number;
  private root: readonly unknown[];
  /** The chunk on the path to the last item made here, by height above the items (0: the items' chunk). */
  private readonly own: unknown[][] = [];
  /** Every chunk made here, frozen by `finish`. */
  private readonly made: unknown[][] = [];

  constructor(list: ChunkedList<T>) {
    this.length = list.length;
    this.height = list.height;
    this.root = list.root;
  }

  /** Whether the list is a whole number of full chunks, under a root above them: a chunk of items can be appended as it is. */
  atChunkEnd(): boolean {
    return this.length % WIDTH === 0 && this.length > 0;
  }

  push(value: T): void {
    this.put(value, 0);
  }

  /** Appends a chunk of `WIDTH` items (see `atChunkEnd`); it is this list's own from now on. */
  pushChunk(chunk: unknown[]): void {
    this.made.push(chunk);
    this.put(chunk, 1);
  }

  /** Puts `value` at the end of the node at `level` on the last path (0: the items' chunk), growing the tree when it is full. */
  private put(value: unknown, level: number): void {
    if (this.length === span(this.height + 1)) {
      // the old root is full: it is never written again, so the new root may share it
      this.height += 1;
      this.root = this.adopt([this.root], this.height);
    }
    let node = this.writable(this.root, this.height);
    this.root = node;
    for (let l = this.height; l > level; l--) {
      const index = Math.floor(this.length / span(l)) % WIDTH;
      const child = this.writable(index === node.length ? null : (node[index] as readonly unknown[]), l - 1);
      node[index] = child;
      node = child;
    }
    node.push(value);
    this.length += span(level);
  }

  /** `node` itself when it was made here, else a copy (a new chunk for `null`). */
  private writable(node: readonly unknown[] | null, level: number): unknown[] {
    const own = this.own[level];
    if (node !== null && own === node) return own;
    return this.adopt(node === null ? [] : [...node], level);
  }

  /** Makes `chunk` the one on the path at `level`. */
  private adopt(chunk: unknown[], level: number): unknown[] {
    this.own[level] = chunk;
    this.made.push(chunk);
    return chunk;
  }

  finish(): ChunkedList<T> {
    for (const chunk of this.made) Object.freeze(chunk);
    return Object.freeze({ length: this.length, height: this.height, root: this.root });
  }
}

/** Calls `fn` on each item in order. */
export function listForEach<T>(list: ChunkedList<T>, fn: (item: T) => void): void {
  const walk = (node: readonly unknown[], level: number): void => {
    if (level === 0) for (const item of node) fn(item as T);
    else for (const child of node) walk(child as readonly unknown[], level - 1);
  };
  walk(list.root, list.height);
}

/** The items in order. */
export function* listValues<T>(list: ChunkedList<T>): IterableIterator<T> {
  function* walk(node: readonly unknown[], level: number): Generator<T> {
    if (level === 0) yield* node as readonly T[];
    else for (const child of node) yield* walk(child as readonly unknown[], level - 1);
  }
  yield* walk(list.root, list.height);
}

/** The items as an array. */
export function listToArray<T>(list: ChunkedList<T>): T[] {
  const out: T[] = [];
  listForEach(list, (item) => out.push(item));
  return out;
}

/** A list holding `items` (mutable until frozen). */
export function listFromArray<T>(items: readonly T[]): MutableChunkedList<T> {
  let level: unknown[][] = [];
  for (let i = 0; i < items.length; i += WIDTH) level.push(items.slice(i, i + WIDTH));
  if (level.length === 0) return emptyList();
  let height = 0;
  while (level.length > 1) {
    const up: unknown[][] = [];
    for (let i = 0; i < level.length; i += WIDTH) up.push(level.slice(i, i + WIDTH));
    level = up;
    height += 1;
  }
  return { length: items.length, height, root: level[0] ?? [] };
}
