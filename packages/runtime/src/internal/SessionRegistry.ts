import type { SessionId } from '../SessionId.ts';
import { formatSessionId } from '../SessionId.ts';
import type { SessionNode } from './SessionNode.ts';

/**
 * The live sessions of one runtime, by id, and each one's live children. The runtime keeps its
 * own registry instead of xstate's `children` (which xstate copies on every spawn: 10,000 live
 * children would cost O(N²)); each session actor still joins the actor system, so the
 * inspector sees it.
 */
export class SessionRegistry {
  private readonly nodes = new Map<SessionId, SessionNode>();
  private counter = 1;

  constructor(private readonly runtimeId: string) {}

  /** The next session id (`<runtimeId>.<n>`); ids are never reused. */
  newId(): SessionId {
    return formatSessionId(this.runtimeId, this.counter++);
  }

  /** Live sessions in the whole tree. */
  get size(): number {
    return this.nodes.size;
  }

  get(id: string): SessionNode | undefined {
    return this.nodes.get(id as SessionId);
  }

  has(node: SessionNode): boolean {
    return this.nodes.get(node.id) === node;
  }

  add(node: SessionNode): void {
    this.nodes.set(node.id, node);
    node.parent?.addChild(node);
  }

  /** Takes a settled session out; false when it was already out. */
  remove(node: SessionNode): boolean {
    if (!this.has(node)) return false;
    this.nodes.delete(node.id);
    node.parent?.removeChild(node);
    return true;
  }

  /** The live root sessions (children of the runtime). */
  roots(): SessionNode[] {
    return [...this.nodes.values()].filter((node) => node.parent === null);
  }
}

/** Anything with live children: a session. */
export interface WithChildren {
  children(): readonly WithChildren[];
}

/** How many live sessions are under `node` (its children, theirs, and so on); a loop, not recursion, for any depth. */
export function liveDescendants(node: WithChildren): number {
  let n = 0;
  for (const pending = [...node.children()]; pending.length > 0; n += 1) pending.push(...(pending.pop()?.children() ?? []));
  return n;
}

/**
 * {@link liveDescendants} of each of `tops` and of every session under them, in one pass: each
 * session's children are listed once.
 */
export function liveDescendantCounts(tops: readonly WithChildren[]): Map<WithChildren, number> {
  const order: WithChildren[] = [];
  const kids = new Map<WithChildren, readonly WithChildren[]>();
  for (const pending = [...tops]; pending.length > 0; ) {
    const node = pending.pop() as WithChildren;
    const children = node.children();
    kids.set(node, children);
    order.push(node);
    pending.push(...children);
  }
  const counts = new Map<WithChildren, number>();
  // children come after their parent in `order`: backwards, each child is counted before it
  for (let i = order.length - 1; i >= 0; i -= 1) {
    const node = order[i] as WithChildren;
    let n = 0;
    for (const child of kids.get(node) ?? []) n += 1 + (counts.get(child) ?? 0);
    counts.set(node, n);
  }
  return counts;
}
