/**
 * The bodies of the kill test's tree: a root, 5 branches, 4 twigs under each and 4 leaves
 * under each twig (and a reader under every other twig) — 116 sessions, every one a registered body (a unit of its own). The tree
 * holds each kind of outcome a crash must not change: leaves that are agents making mock model
 * calls through `@cohort/ai`, pairs of rival leaves that rewrite the same skill (the second
 * merge is refused as a conflict) followed by a reader of that skill, leaves that throw, and
 * twigs that throw after their leaves committed (their whole subtree discarded). Each session
 * reports the ids it was told; a parent reports its children's reports, so the root's output
 * holds every id the tree was told.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { runAgent } from '@cohort/ai';
import type { Session, SessionOutcome } from '@cohort/runtime';
import { modelCalls } from './agents.ts';
import { started } from './bodies.ts';

/** What a session of the tree reports: the ids it was told, and its children's reports (a failed child as `failed:<kind>: <message>`). */
export interface TreeReport {
  readonly told: readonly string[];
  readonly kids: readonly (TreeReport | string)[];
  /** A twig with rivals: the leaf whose rewrite stands in its draft. */
  readonly won?: number;
  /** A twig with rivals: whether the reader it spawned after them saw the rewrite that stands in its draft. */
  readonly agreed?: boolean;
}

/** What every session of the tree is given: the run's tag (in every issue, so runs stay apart), its label, and the leaves' delay. */
export interface TreeInput {
  readonly tag: string;
  readonly delayMs: number;
  /**
   * Which rival of each twig (by label) merges first: the other starts late. Only the run in
   * process is given it, to take the rivals in the order a durable run recorded.
   */
  readonly winners?: Readonly<Record<string, number>>;
}

type At = TreeInput & { readonly label: string };

/** The tree's shape: branches under the root, twigs under a branch, leaves under a twig. */
export const TREE = { branches: 5, twigs: 4, leaves: 4 } as const;

/** Whether twig `twig` has rivals (and a reader after them): the even ones. */
export const hasRivals = (twig: number): boolean => twig % 2 === 0;

/** How many sessions one run of the tree has. */
export const TREE_SESSIONS =
  1 + TREE.branches * (1 + TREE.twigs * (1 + TREE.leaves) + Array.from({ length: TREE.twigs }, (_, t) => t).filter(hasRivals).length);

/** The label of the session at `place` (branch, twig, leaf indexes) in the run tagged `tag`: `t1`, `t1 b2`, `t1 b2t0`, `t1 b2t0l3`. */
export function labelOf(tag: string, place: readonly number[]): string {
  const [b, t, l] = place;
  if (b === undefined) return tag;
  return `${tag} b${b}${t === undefined ? '' : `t${t}`}${l === undefined ? '' : `l${l}`}`;
}

/** What the leaf at index `leaf` of twig `twig` is: agents, a rival pair on even twigs, a thrower on odd ones. */
export function leafKind(twig: number, leaf: number): 'agent' | 'rival' | 'thrower' {
  if (leaf < 2) return 'agent';
  if (hasRivals(twig)) return 'rival';
  return leaf === 2 ? 'agent' : 'thrower';
}

/** Whether twig `twig` throws once its leaves are merged (the last twig of each branch does). */
export const twigThrows = (twig: number): boolean => twig === TREE.twigs - 1;

/** A child's report, or its failure: the kind, and the message but for a conflict's (which names revisions). */
function reportOf(o: SessionOutcome<TreeReport>): TreeReport | string {
  if (o.status === 'committed') return o.output;
  return o.failure.kind === 'conflict' ? 'failed:conflict' : `failed:${o.failure.kind}: ${o.failure.message}`;
}

async function addOwn(s: Session, label: string): Promise<string> {
  const added = await s.tools.add_skill({ section: 'harness', issue: label, insight: `written by ${label}` });
  if ('error' in added) throw new Error(`add_skill failed: ${added.error}`);
  return added.skill_id;
}

/** The root: a skill of its own, then its branches, in parallel. */
export async function treeRoot(s: Session<TreeInput>): Promise<TreeReport> {
  const { tag } = s.input;
  await started.hook(tag);
  const own = await addOwn(s, tag);
  const kids = await Promise.all(
    Array.from({ length: TREE.branches }, (_, b) =>
      s.spawn(treeBranch, { input: { ...s.input, label: labelOf(tag, [b]), branch: b }, name: `branch ${b}` }),
    ),
  );
  return { told: [own], kids: kids.map(reportOf) };
}

/** A branch: a skill of its own, then its twigs (each tags the branch's skill, seen in its view). */
export async function treeBranch(s: Session<At & { readonly branch: number }>): Promise<TreeReport> {
  const { tag, label, branch: b } = s.input;
  await started.hook(label);
  const own = await addOwn(s, label);
  const kids = await Promise.all(
    Array.from({ length: TREE.twigs }, (_, t) =>
      s.spawn(treeTwig, { input: { ...s.input, label: labelOf(tag, [b, t]), parentSkill: own, twig: t }, name: `twig ${t}` }),
    ),
  );
  return { told: [own], kids: kids.map(reportOf) };
}

/**
 * A twig: tags its branch's skill, writes one of its own, then its leaves; an even twig then
 * spawns a reader of its skill, and reports which rival's rewrite stands and whether the reader
 * saw the same (it does unless the twig's draft was rebuilt with its children merged in another
 * order). The last twig of a branch throws after its leaves.
 */
export async function treeTwig(s: Session<At & { readonly parentSkill: string; readonly twig: number }>): Promise<TreeReport> {
  const { delayMs, label, parentSkill, twig, winners } = s.input;
  await started.hook(label);
  const tagged = await s.tools.tag_skill({ skill_id: parentSkill, tag: 'helpful' });
  if ('error' in tagged) throw new Error(`tag_skill failed: ${tagged.error}`);
  const own = await addOwn(s, label);
  const kids = await Promise.all(
    Array.from({ length: TREE.leaves }, (_, l) => {
      const input = { ...s.input, label: `${label}l${l}`, skill: own };
      const kind = leafKind(twig, l);
      if (kind === 'agent') return s.spawn(treeAgent, { input, name: `agent ${l}` });
      if (kind === 'thrower') return s.spawn(treeThrower, { input, name: 'thrower' });
      const lateMs = winners && winners[label] !== l ? LATE_MS : 0;
      return s.spawn(treeRival, { input: { ...input, insight: `rewritten by rival ${l}`, lateMs }, name: `rival ${l}` });
    }),
  );
  if (twigThrows(twig)) throw new Error(`${label} fails after its leaves`);
  const report: TreeReport = { told: [own], kids: kids.map(reportOf) };
  if (!hasRivals(twig)) return report;
  const input = { ...s.input, label: `${label}l${TREE.leaves}`, skill: own, delayMs };
  const read = await s.spawn(treeReader, { input, name: 'reader' });
  const stands = s.book.get(own)?.insight;
  const won = Number(/rival (\d+)$/.exec(stands ?? '')?.[1]);
  return { ...report, won, agreed: read.status === 'committed' && read.output === stands };
}

/** How much later the rival that is to lose starts, in the run in process that follows a durable run's order. */
const LATE_MS = 300;

type LeafInput = At & { readonly skill: string };

/** A leaf agent: `@cohort/ai`'s loop against {@link leafModel}; reports the id the model read back from its tool call. */
export async function treeAgent(s: Session<LeafInput>): Promise<TreeReport> {
  await started.hook(s.input.label);
  const result = await runAgent(s, { model: leafModel(s.input.label, s.input.delayMs), prompt: s.input.label, maxSteps: 2 });
  return { told: [result.text.split(' ').at(-1) ?? ''], kids: [] };
}

/** A rival leaf: waits, then rewrites its twig's skill with `insight`. */
export async function treeRival(s: Session<LeafInput & { readonly insight: string; readonly lateMs: number }>): Promise<TreeReport> {
  await started.hook(s.input.label);
  await s.sleep(s.input.delayMs + s.input.lateMs);
  const updated = await s.tools.update_skill({ skill_id: s.input.skill, insight: s.input.insight });
  if ('error' in updated) throw new Error(updated.error);
  return { told: [updated.skill_id], kids: [] };
}

/** A leaf that waits, then reports the insight of its twig's skill it sees (its view: the twig's draft at the spawn). */
export async function treeReader(s: Session<LeafInput>): Promise<string> {
  await started.hook(s.input.label);
  await s.sleep(s.input.delayMs);
  return s.book.get(s.input.skill)?.insight ?? 'none';
}

/** A leaf that writes, waits, then throws: nothing of it may reach the book. */
export async function treeThrower(s: Session<LeafInput>): Promise<never> {
  await started.hook(s.input.label);
  await s.tools.add_skill({ section: 'harness', issue: `${s.input.label} crashed`, insight: 'must never reach the book' });
  await s.sleep(s.input.delayMs);
  throw new Error(`${s.input.label} throws`);
}

/** The bodies of the tree, registered by these names on every worker. */
export const treeBodies = { treeRoot, treeBranch, treeTwig, treeAgent, treeRival, treeReader, treeThrower };

/** The id of model call `step` of the agent `label`: its tool call's id, and the start of its answer. */
export const callId = (label: string, step: number): string => `${label}#${step}`;

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * A mock model of two calls: an `add_skill` call, then an answer that names the id the tool
 * result told it (`<label>#1 <id>`). Each call is logged through {@link modelCalls} as it
 * starts, then takes `delayMs`.
 */
export function leafModel(label: string, delayMs: number): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options: CallOptions) => {
      const step = options.prompt.filter((m) => m.role === 'assistant').length;
      await modelCalls.hook(label, step);
      await new Promise((r) => setTimeout(r, delayMs));
      if (step === 0) {
        const args = { section: 'harness', issue: `${label} by the model`, insight: 'found by a model call' };
        return {
          content: [{ type: 'tool-call' as const, toolCallId: callId(label, 0), toolName: 'add_skill', input: JSON.stringify(args) }],
          finishReason: { unified: 'tool-calls' as const, raw: undefined },
          usage,
          warnings: [],
        };
      }
      const told = /"skill_id":"([^"]+)"/.exec(JSON.stringify(options.prompt.filter((m) => m.role === 'tool')))?.[1] ?? 'none';
      return {
        content: [{ type: 'text' as const, text: `${callId(label, 1)} ${told}` }],
        finishReason: { unified: 'stop' as const, raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
