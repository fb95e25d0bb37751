/**
 * The workload every system of the peer comparison runs, W(n, k): a parent fans out children
 * in parallel, each makes k inserts into its own isolated view, and each child's writes are
 * merged into its parent when it returns. One child in ten throws after its inserts (and after
 * its own children returned): its writes, and those merged into it, must not appear.
 *
 * A flat W(n, 10) is `fanOut: [n]`; the depth-3 tree is `fanOut: [10, 10, 10]` (1,110 child
 * sessions under one parent). The parent makes no inserts.
 */

/** One insert: what an `add_skill` call carries. */
export interface Insert {
  readonly section: string;
  /** `w <path> #<j>`: the child's path from the parent (`3.9.1`) and the insert's number. */
  readonly issue: string;
  readonly insight: string;
}

/** A shape of the workload. */
export interface Workload {
  /** Short key: `1k`, `10k`, `tree`. */
  readonly id: string;
  /** Column heading: `n = 1,000`, `depth-3 tree (1,110)`. */
  readonly label: string;
  /** Children per session at each depth: `[n]` for a flat fan-out. */
  readonly fanOut: readonly number[];
  /** Inserts per child. */
  readonly k: number;
}

/** A flat W(n, k). */
export function flatWorkload(id: string, n: number, k = 10): Workload {
  return { id, label: `n = ${n.toLocaleString('en-US')}`, fanOut: [n], k };
}

/** A tree of `depth` levels of `branching` children each, every child making k inserts. */
export function treeWorkload(id: string, branching: number, depth: number, k = 10): Workload {
  const fanOut = Array.from({ length: depth }, () => branching);
  return { id, label: `depth-${depth} tree (${sessionCount({ id, label: '', fanOut, k }).toLocaleString('en-US')})`, fanOut, k };
}

/** Child sessions in `w` (the parent not counted). */
export function sessionCount(w: Workload): number {
  let level = 1;
  let total = 0;
  for (const n of w.fanOut) {
    level *= n;
    total += level;
  }
  return total;
}

/** Whether the child at `index` among its siblings throws: one in ten. */
export function crashes(index: number): boolean {
  return index % 10 === 9;
}

/** Whether the child at `path` throws (the parent, at `[]`, never does). */
export function crashesAt(path: readonly number[]): boolean {
  const last = path[path.length - 1];
  return last !== undefined && crashes(last);
}

/** The `j`-th insert of the child at `path`. */
export function insertOf(path: readonly number[], j: number): Insert {
  return { section: 'harness', issue: `w ${path.join('.')} #${j}`, insight: 'learned' };
}

/** An insert as an async call, as a tool call is: appends to the caller's own view. */
export async function insertInto(view: Insert[], insert: Insert): Promise<void> {
  view.push(insert);
}

/** Inserts that must survive: those of every child with no crashing child on its path. */
export function expectedSurvivors(w: Workload): number {
  let level = 1;
  let total = 0;
  for (const n of w.fanOut) {
    level *= n - Math.floor(n / 10);
    total += level;
  }
  return total * w.k;
}

/** What a run of `w` left behind, checked. */
export interface Verdict {
  readonly expected: number;
  readonly survived: number;
  /** Inserts still there from a child that threw or one under it (or that no child made). */
  readonly crashedKept: number;
  /** Survivors exactly as expected, and none from a crashed child. */
  readonly ok: boolean;
}

/** Checks the inserts a run of `w` kept. */
export function verify(w: Workload, kept: Iterable<{ readonly issue: string }>): Verdict {
  let survived = 0;
  let crashedKept = 0;
  for (const insert of kept) {
    survived++;
    const path = /^w ([\d.]+) #\d+$/.exec(insert.issue)?.[1];
    if (path === undefined || path.split('.').some((i) => crashes(Number(i)))) crashedKept++;
  }
  const expected = expectedSurvivors(w);
  return { expected, survived, crashedKept, ok: survived === expected && crashedKept === 0 };
}
