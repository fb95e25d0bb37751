import { liveDescendantCounts, liveDescendants } from './SessionRegistry.ts';
import type { WithChildren } from './SessionRegistry.ts';
import type { SessionNode } from './SessionNode.ts';

/** A cascade under way: the sessions still to cancel, in order, and the live count of every subtree it reaches. */
interface Running {
  readonly queue: [SessionNode, string][];
  readonly counts: Map<WithChildren, number>;
}

/**
 * Cancels whole subtrees of sessions without nesting. A cancelled session cancels its own
 * children as it settles; done directly, each level runs inside the one above it (a send, a
 * settle, a send…), so a tree 1,000 sessions deep overflows the stack, and counting every
 * failed session's live descendants anew costs O(n × depth). A cascade tells the children of
 * the sessions it cancels in turn, from one loop at the top, and counts every subtree once,
 * when it starts: cancelling n sessions is O(n), at any depth.
 */
export class CancelCascade {
  private running: Running | null = null;

  /**
   * Cancels the live children of `node` (which is failing) and, through them, their subtrees;
   * how many live sessions were under it. Inside a cascade the children wait their turn.
   */
  cancelChildren(node: SessionNode, reason: string): number {
    const running = this.running;
    if (running) {
      for (const child of node.children()) running.queue.push([child, reason]);
      return running.counts.get(node) ?? liveDescendants(node);
    }
    const counts = liveDescendantCounts([node]);
    this.run(
      node.children().map((child) => [child, reason]),
      counts,
    );
    return counts.get(node) ?? 0;
  }

  /** Cancels `nodes` and their subtrees (the runtime's root sessions, when it closes). */
  cancel(nodes: readonly SessionNode[], reason: string): void {
    if (this.running) {
      for (const node of nodes) this.running.queue.push([node, reason]);
      return;
    }
    this.run(
      nodes.map((node) => [node, reason]),
      liveDescendantCounts(nodes),
    );
  }

  private run(queue: [SessionNode, string][], counts: Map<WithChildren, number>): void {
    this.running = { queue, counts };
    try {
      for (let i = 0; i < queue.length; i += 1) {
        const [node, reason] = queue[i] as [SessionNode, string];
        node.tell({ type: 'CANCEL', reason });
      }
    } finally {
      this.running = null;
    }
  }
}
