import { callSkillTool } from '@cohort/runtime';
import type { Clock, Session, SessionBody, SpawnOptions, ToolResult } from '@cohort/runtime';
import type { AppliedOp } from '@cohort/skillbook';
import { rawOp, resolveTarget, toolCall, witnessToolOp, writtenId } from './buildOp.ts';
import type { TargetEnv } from './buildOp.ts';
import type { EpochRecord } from './EpochRecord.ts';
import type { OpPlan, SessionPlan, Step } from './Scenario.ts';

/** What scripted bodies share: where they record, the clock, and the seed skills' ids. */
export interface ScriptEnv {
  readonly record: EpochRecord;
  readonly clock: Clock;
  readonly seedIds: readonly string[];
  /** The body a spawn of `plan` runs (a durable tree's registered one); a fresh script by default. */
  readonly bodyOf?: (plan: SessionPlan) => SessionBody<unknown, ScriptOutput>;
}

/** What a scripted body returns: the ids it added. */
export interface ScriptOutput {
  readonly added: readonly string[];
}

/** A body's running state. */
interface Run {
  readonly s: Session;
  readonly plan: SessionPlan;
  readonly env: ScriptEnv;
  readonly own: string[];
}

/**
 * Turns a session plan into a body: it runs the steps in order, records every write the
 * runtime reports applied (batches through `s.applyBatch`'s result; tool calls through an
 * independently rebuilt op) and every spawn's outcome. A body stops when its session ends,
 * unless the plan is `stubborn`: then it keeps calling (refused) tools and may throw late.
 *
 * @example
 * const outcome = await rt.run(scriptBody(plan, env), spawnOptions(plan));
 */
export function scriptBody(plan: SessionPlan, env: ScriptEnv): SessionBody<unknown, ScriptOutput> {
  return async (s: Session): Promise<ScriptOutput> => {
    const run: Run = { s, plan, env, own: [] };
    for (const step of plan.steps) {
      if (s.signal.aborted && !plan.stubborn) break;
      if ((await runStep(run, step)) === 'stop') break;
    }
    return { added: run.own };
  };
}

/** The spawn options of a session plan. */
export function spawnOptions(plan: SessionPlan): SpawnOptions<unknown> {
  return {
    name: plan.name,
    ...(plan.timeoutMs !== null ? { timeoutMs: plan.timeoutMs } : {}),
    ...(plan.budget ? { budget: plan.budget } : {}),
    ...(plan.retry ? { retry: { attempts: plan.retry.attempts, on: [...plan.retry.on] } } : {}),
  };
}

async function runStep(run: Run, step: Step): Promise<'stop' | undefined> {
  const { s, plan } = run;
  switch (step.kind) {
    case 'think':
      try {
        await s.sleep(step.ms);
      } catch {
        if (!plan.stubborn) return 'stop';
      }
      return;
    case 'tool':
      await toolStep(run, step.op, step.thenThrow);
      return;
    case 'read':
      await s.tools.read_skill({ skill_id: resolveTarget(step.target, targetEnv(run)) });
      return;
    case 'batch':
      await batchStep(run, step.ops);
      return;
    case 'spawn':
      await spawnStep(run, step.child, step.wait);
      return;
    case 'charge':
      s.charge({ tokens: step.tokens });
      return;
    case 'crash':
      if (step.firstAttemptOnly && s.attempt > 1) return;
      if (step.value === 'non-error') throw { code: 'SCRIPTED', session: plan.name };
      throw new Error(`scripted crash in ${plan.name}`, { cause: new Error('the scripted root cause') });
    case 'abort':
      s.abort(step.reason);
      return plan.stubborn ? undefined : 'stop';
  }
}

async function toolStep(run: Run, op: OpPlan, thenThrow: boolean): Promise<void> {
  const { s, env } = run;
  const { tool, args } = toolCall(op, targetEnv(run));
  const explicit = op.target?.from === 'shared' ? new Set([resolveTarget(op.target, targetEnv(run))]) : new Set<string>();
  const before = s.book;
  const at = env.clock.now();
  const call = callSkillTool(s.tools, tool, args); // deliberately unchecked arguments, as an LLM sends them
  // a tool writes when it is called (its promise only reports): witness the write right here,
  // before anything else (a child's merge) can touch the draft
  let applied = s.book === before ? [] : witnessToolOp(tool, args, before, at, writtenId(tool, args, before, s.book));
  const witness = (ops: readonly AppliedOp[]): void => {
    env.record.own(s.id, ops, explicit);
    for (const a of ops) if (a.type === 'ADD') run.own.push(a.skill_id);
  };
  witness(applied);
  const check = (result: ToolResult): void => {
    // an ADD that waited for the runtime's next id lease wrote just before it resolved
    if (
      applied.length === 0 &&
      tool === 'add_skill' &&
      'skill_id' in result &&
      s.book.has(result.skill_id) &&
      !before.has(result.skill_id)
    ) {
      applied = witnessToolOp(tool, args, before, env.clock.now(), result.skill_id);
      witness(applied);
    }
    const reported = 'skill_id' in result ? result.skill_id : null;
    const wrote = applied[0]?.skill_id ?? null;
    // removing a skill that is removed already changes nothing: nothing is written
    const unchanged = wrote === null && tool === 'remove_skill' && reported !== null && before.get(reported)?.active === false;
    if (reported !== wrote && !unchanged)
      env.record.misreported.push(`${tool} by ${s.path.join('/')} reported ${reported ?? 'an error'}, but wrote ${wrote ?? 'nothing'}`);
  };
  if (!thenThrow) {
    check(await call);
    return;
  }
  // a throw inside the tool call's callback: the write is in the draft, then the body crashes
  await call.then((result) => {
    check(result);
    throw new Error(`callback of ${tool} threw in ${run.plan.name}`);
  });
}

function batchStep(run: Run, ops: readonly OpPlan[]): void {
  const env = targetEnv(run);
  const explicit = new Set(ops.flatMap((op) => (op.type === 'ADD' && op.target?.from === 'shared' ? [resolveTarget(op.target, env)] : [])));
  const result = run.s.applyBatch({ operations: ops.map((op) => rawOp(op, env)) });
  if (!result.ok) return;
  run.env.record.own(run.s.id, result.applied, explicit);
  for (const a of result.applied) if (a.type === 'ADD') run.own.push(a.skill_id);
}

async function spawnStep(run: Run, child: SessionPlan, wait: boolean): Promise<void> {
  const deliver = run.env.record.call(run.s.id);
  const body = run.env.bodyOf?.(child) ?? scriptBody(child, run.env);
  const outcome = run.s.spawn(body, spawnOptions(child)).then((o) => {
    deliver(o);
    return o;
  });
  // not waiting leaves the child to structured concurrency: the parent commits only after it settles
  if (wait) await outcome;
}

function targetEnv(run: Run): TargetEnv {
  return { seedIds: run.env.seedIds, book: run.s.book, own: run.own };
}
