/**
 * An append-only list stored as a tree of chunks of at most 64 items (a persistent vector),
 * so that appending inside an immer `produce` copies only the chunks on the path to the last
 * item — O(log₆₄ n), three chunks of 64 at 100,000 items — instead of an array of every id.
 * Used for the document's skill order and each section's id order.
 */
import type { Transient } from './Transient.ts';

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
 * Appends in a commit (see {@link Transient}): copies the chunks on the path to the last item
 * once per commit and writes into the copies. `list` must be a header the transient owns.
 */
export function listPushTransient<T>(list: { length: number; height: number; root: readonly unknown[] }, value: T, t: Transient): void {
  if (list.length === WIDTH ** (list.height + 1)) {
    // the old root is full: it is never written again, so the new root may share it
    list.root = t.adopt([list.root]);
    list.height += 1;
  }
  let node = t.array(list.root);
  list.root = node;
  for (let level = list.height; level > 0; level--) {
    const index = Math.floor(list.length / WIDTH ** level) % WIDTH;
    const child = index === node.length ? t.adopt<unknown[]>([]) : t.array(node[index] as readonly unknown[]);
    node[index] = child;
    node = child;
  }
  node.push(value);
  list.length += 1;
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
