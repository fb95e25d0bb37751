import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { AuditEntry, Runtime, Session } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import type { Output } from '../runCli.ts';
import { SessionTreeView } from '../SessionTreeView.ts';

const SEED = { type: 'ADD', section: 'context', issue: 'API calls time out under load', insight: 'retry with backoff', keywords: ['api'] };

/** `cohort demo`: ACE's recurse bug replayed through Cohort, then a nested tree with a conflict. */
export async function runDemo(_args: string[], out: Output): Promise<number> {
  const clock = new SimulatedClock(Date.UTC(2026, 10, 29, 12));
  out.write(heading('1. The ACE recurse scenario'));
  out.write(
    '  A parent runs two children in parallel. A adds a1 and a2 and improves the seed skill;\n' +
      '  B adds b1-leaked, then crashes. In ACE, b1-leaked stays in the shared Skillbook, the\n' +
      '  operations interleave, and the parent gets the string "(child session failed: …)".\n\n',
  );
  const first = await scenario(clock, out, async (root) => {
    const a = root.spawn(async (s: Session) => {
      await s.tools.add_skill({ section: 'context', issue: 'a1: paginate large result sets', insight: 'use cursors' });
      await s.sleep(10);
      await s.tools.add_skill({ section: 'context', issue: 'a2: cache schema lookups', insight: 'memoise per run' });
      await s.sleep(10);
      await s.tools.update_skill({ skill_id: 'context-00001', insight: 'retry with exponential backoff and jitter' });
      return 'A finished';
    }, { name: 'A' });
    const b = root.spawn(async (s: Session) => {
      await s.sleep(5);
      await s.tools.add_skill({ section: 'context', issue: 'b1-leaked', insight: 'must never reach the book' });
      await s.sleep(10);
      throw new Error('simulated sandbox/tool crash');
    }, { name: 'B' });
    return Promise.all([a, b]);
  });
  if (!first) return 1;

  out.write(heading('2. A nested tree with a conflict'));
  out.write(
    '  A planner runs an editor (updates the seed) and a pruner (removes it) in parallel; the\n' +
      '  pruner commits first, so the editor is rejected, naming the skill. A flaky sibling of\n' +
      '  the planner merges a grandchild, then crashes: neither reaches the book.\n\n',
  );
  const second = await scenario(clock, out, async (root) => {
    const planner = root.spawn(async (p: Session) => {
      await p.tools.add_skill({ section: 'harness', issue: 'plan before editing', insight: 'list the skills you touch' });
      const editor = p.spawn(async (s: Session) => {
        await s.sleep(20);
        await s.tools.update_skill({ skill_id: 'context-00001', insight: 'never retry' });
      }, { name: 'editor' });
      const pruner = p.spawn(async (s: Session) => {
        await s.sleep(5);
        await s.tools.remove_skill({ skill_id: 'context-00001', reason: 'superseded' });
      }, { name: 'pruner' });
      return Promise.all([editor, pruner]);
    }, { name: 'planner' });
    const flaky = root.spawn(async (f: Session) => {
      await f.spawn(async (g: Session) => {
        await g.tools.add_skill({ section: 'harness', issue: 'grandchild note', insight: 'lost with its parent' });
      }, { name: 'helper' });
      await f.sleep(30);
      throw new Error('flaky session crashed after its helper merged');
    }, { name: 'flaky' });
    return Promise.all([planner, flaky]);
  });
  return second ? 0 : 1;
}

async function scenario(clock: SimulatedClock, out: Output, body: (root: Session) => Promise<unknown>): Promise<boolean> {
  const seeded = Skillbook.empty().applyBatch({ operations: [SEED] }, { clock });
  if (!seeded.ok) throw new Error(seeded.error.message);
  const rt = createRuntime({ book: seeded.book, clock });
  const view = new SessionTreeView();
  rt.events$.subscribe((e) => view.observe(e));
  const outcome = await clock.settle(rt.run(body, { name: 'root' }));
  out.write(`Session tree\n${view.render()}\n\n`);
  out.write(`Audit log (each entry one contiguous block, attributed to one session path)\n${renderAudit(rt, view)}\n\n`);
  out.write(`Final book, as the prompt a model sees\n${indent(rt.book.asPrompt())}\n\n`);
  await rt.close();
  return outcome.status === 'committed';
}

function renderAudit(rt: Runtime, view: SessionTreeView): string {
  if (rt.audit.length === 0) return '  (empty)';
  return rt.audit.map((e: AuditEntry) => `  rev ${e.revision}  ${e.path.map((id) => view.nameOf(id)).join('/')}\n${e.ops.map((op) => `      ${op.type.padEnd(6)} ${op.skill_id}${op.issue ? `  "${op.issue}"` : ''}`).join('\n')}`).join('\n');
}

function heading(text: string): string {
  return `\n${text}\n${'─'.repeat(text.length)}\n`;
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}
