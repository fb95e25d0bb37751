import type { DurablePlan } from './durable/DurablePlan.ts';
import type { ExternalPlan } from './external/ExternalPlan.ts';

/**
 * A scenario: everything one simulated run will do, as plain data generated from the seed
 * before anything runs. The executor only interprets it, so the report can show it whole and
 * a failing seed replays exactly.
 */
export interface Scenario {
  /** Skills in the initial book (targets for conflicting writes). */
  readonly seedSkills: number;
  /** The runtime's conflict policy; `resolver` is a deterministic resolver function. */
  readonly policy: PolicyName;
  readonly limits: ScenarioLimits;
  /** The runtime-wide token budget, if any. */
  readonly budgetTokens: number | null;
  readonly store: StorePlan;
  /** One runtime per epoch; a process crash ends an epoch and the next one reopens the store. */
  readonly epochs: readonly EpochPlan[];
  /** Another program (ACE) saving the file store's document during the run, or `null`. */
  readonly external: ExternalPlan | null;
  /** After the epochs, several runtimes on the store at once (null: this seed has none). */
  readonly writers: WritersPlan | null;
  /** A durable session tree (`@cohort/durable`) run with and without a crash of its process (null: this seed has none). */
  readonly durable: DurablePlan | null;
}

/**
 * Many writers: runtimes of one service (processes, for a file store: one mount of the disk
 * each) on one store at the same time, each running wide session trees — hundreds of sessions.
 */
export interface WritersPlan {
  /** What each runtime runs. */
  readonly runtimes: readonly { readonly roots: readonly RootPlan[] }[];
}

/** A conflict policy by name. */
export type PolicyName = 'reject' | 'rebase' | 'last-writer-wins' | 'resolver';

/** The runtime limits of a scenario (`maxDepth` is always the runtime's default, 2). */
export interface ScenarioLimits {
  readonly maxDepth: number;
  readonly maxChildren: number;
  readonly maxOpsPerCommit: number;
  readonly maxMergeQueue: number;
}

/** Where the root book lives, and which faults the store sees. */
export type StorePlan =
  | {
      readonly kind: 'memory';
      /** The n-th append (1-based) is refused with an `io` error, or throws (a defective store). */
      readonly fault: { readonly append: number; readonly as: 'refusal' | 'throw' } | null;
    }
  | {
      readonly kind: 'file';
      readonly checkpointEvery: number;
      /** 0: no idle checkpoints. */
      readonly idleCheckpointMs: number;
      /** The n-th file operation of this kind (1-based) fails with `EIO`: a write error or a failed fsync. */
      readonly fault: { readonly op: 'append' | 'sync' | 'writeFile'; readonly nth: number } | null;
    };

/** One epoch: a runtime on the store, its root sessions, and maybe a process crash. */
export interface EpochPlan {
  readonly roots: readonly RootPlan[];
  /** The machine crashes before its n-th mutating file operation of this epoch (or at its end, if it never comes). */
  readonly crash: { readonly afterOps: number; readonly mode: 'power' | 'process' } | null;
}

/** A root session, started at `startAt` ms of virtual time after its epoch began. */
export interface RootPlan {
  readonly startAt: number;
  readonly session: SessionPlan;
}

/** A session: its spawn options and the scripted program its body runs. */
export interface SessionPlan {
  readonly name: string;
  readonly timeoutMs: number | null;
  readonly budget: { readonly tokens?: number; readonly ms?: number } | null;
  readonly retry: { readonly attempts: number; readonly on: readonly ('crashed' | 'conflict' | 'timeout')[] } | null;
  /** Keeps going after its session ended (sleeps refused, tools refused): exercises late calls. */
  readonly stubborn: boolean;
  readonly steps: readonly Step[];
}

/** Which skill an op targets, resolved when it runs. */
export type TargetPlan =
  | { readonly from: 'seed'; readonly index: number }
  | { readonly from: 'visible'; readonly index: number }
  | { readonly from: 'own'; readonly index: number }
  | { readonly from: 'shared'; readonly name: string }
  | { readonly from: 'missing' };

/** Ways an op or a tool call can be malformed. */
export type Malformation = 'unknown-type' | 'missing-issue' | 'empty-id' | 'bad-tag' | 'extra-key' | 'not-an-object' | 'bad-delta';

/** One op of a scripted batch or tool call. */
export interface OpPlan {
  readonly type: 'ADD' | 'UPDATE' | 'TAG' | 'REMOVE';
  readonly target: TargetPlan | null;
  readonly text: string;
  readonly section: 'context' | 'harness';
  readonly invalid: Malformation | null;
}

/** A step of a session's program. */
export type Step =
  | { readonly kind: 'think'; readonly ms: number }
  /** A tool call; `thenThrow`: the body throws inside the call's `.then` callback, after the write. */
  | { readonly kind: 'tool'; readonly op: OpPlan; readonly thenThrow: boolean }
  | { readonly kind: 'read'; readonly target: TargetPlan }
  | { readonly kind: 'batch'; readonly ops: readonly OpPlan[] }
  | { readonly kind: 'spawn'; readonly child: SessionPlan; readonly wait: boolean }
  | { readonly kind: 'charge'; readonly tokens: number }
  | { readonly kind: 'crash'; readonly firstAttemptOnly: boolean; readonly value: 'error' | 'non-error' }
  | { readonly kind: 'abort'; readonly reason: string };
