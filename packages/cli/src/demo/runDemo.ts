import { createInspectionTap, RunRecorder } from '@cohort/report';
import type { Recording } from '@cohort/report';
import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { AuditEntry, Runtime } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import type { CliOutput } from '../CliIo.ts';
import { SessionTreeView } from '../SessionTreeView.ts';
import { conflictScenario } from './conflictScenario.ts';
import { crashScenario } from './crashScenario.ts';
import type { DemoScenario } from './DemoScenario.ts';
import { scenarioSource } from './scenarioSource.ts';
import { timeoutScenario } from './timeoutScenario.ts';

const SCENARIOS: readonly DemoScenario[] = [crashScenario, timeoutScenario, conflictScenario];

const SEED = { type: 'ADD', section: 'context', issue: 'API calls time out under load', insight: 'retry with backoff', keywords: ['api'] };

const INTRO = `Cohort runs AI-agent sessions in parallel over one shared Skillbook.

  A Skillbook is what a learning agent keeps of what it learned: short skills (a problem and
  what to do about it) that go into the model's prompt. ACE, the agentic-context-engine, is a
  framework built around such a book; its agents change it with tool calls (add_skill,
  update_skill, tag_skill, remove_skill). When several agent sessions share one book, their
  edits interleave, and a session that crashes halfway leaves half its edits behind.

  In Cohort each session edits a private draft. When it ends, all its changes reach its
  parent at once (a commit), or none do (a crash, a timeout, a conflict). Each scenario below
  starts from a book with one skill (context-00001), runs on a simulated clock (the output is
  the same every time), and shows the code that ran, how each session ended, the audit log
  and the final book.
`;

/** What {@link runDemo} did: its exit code (1 if a scenario went wrong) and the recording of its runs (one per scenario). */
export interface DemoResult {
  readonly code: number;
  readonly recording: Recording;
}

/** `cohort demo`: what Cohort does, in three scenarios, with the code of each, each recorded as a run for a report. */
export async function runDemo(out: CliOutput): Promise<DemoResult> {
  const clock = new SimulatedClock(Date.UTC(2026, 10, 29, 12));
  const recorder = new RunRecorder({ title: 'cohort demo', clock });
  out.write(INTRO);
  for (const [i, scenario] of SCENARIOS.entries()) {
    out.write(heading(`${i + 1}. ${scenario.title}`));
    out.write(`${indent(scenario.explanation)}\n\n`);
    out.write(`The code (the root session's body; s.tools are the Skillbook tools)\n${indent(scenarioSource(scenario))}\n\n`);
    if (!(await runScenario(clock, out, scenario, recorder))) return { code: 1, recording: recorder.stop() };
  }
  return { code: 0, recording: recorder.stop() };
}

async function runScenario(clock: SimulatedClock, out: CliOutput, scenario: DemoScenario, recorder: RunRecorder): Promise<boolean> {
  const seeded = Skillbook.empty().applyBatch({ operations: [SEED] }, { clock });
  if (!seeded.ok) throw new Error(seeded.error.message);
  const tap = createInspectionTap();
  const rt = createRuntime({ book: seeded.book, clock, inspect: tap.inspect, runtimeId: 'demo' });
  recorder.attach(rt, { label: scenario.title, inspection: tap });
  const view = new SessionTreeView();
  rt.events$.subscribe((e) => view.observe(e));
  const outcome = await clock.settle(rt.run(scenario.body, { name: 'root' }));
  out.write(`Session tree\n${view.render()}\n\n`);
  out.write(`Audit log (each entry one contiguous block, attributed to one session path)\n${renderAudit(rt, view)}\n\n`);
  out.write(`Final book, as the prompt a model sees\n${indent(rt.book.asPrompt())}\n\n`);
  await rt.close();
  return outcome.status === 'committed';
}

function renderAudit(rt: Runtime, view: SessionTreeView): string {
  if (rt.audit.length === 0) return '  (empty)';
  return rt.audit
    .map(
      (e: AuditEntry) =>
        `  rev ${e.revision}  ${e.path.map((id) => view.nameOf(id)).join('/')}\n${e.ops.map((op) => `      ${op.type.padEnd(6)} ${op.skill_id}${op.issue ? `  "${op.issue}"` : ''}`).join('\n')}`,
    )
    .join('\n');
}

function heading(text: string): string {
  return `\n${text}\n${'─'.repeat(text.length)}\n`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');
}
