import type { SimReport, TimelineEvent } from './SimReport.ts';

/**
 * Renders a report for people: a header naming the scenario, the timeline one event per line
 * (virtual time, session path, what happened), then each invariant with its verdict.
 *
 * @example
 * process.stdout.write(formatTrace(await simulate({ seed: 7 })));
 */
export function formatTrace(report: SimReport): string {
  const s = report.scenario;
  const roots = s.epochs.reduce((n, e) => n + e.roots.length, 0);
  const lines = [
    `seed ${report.seed}${report.options.mutation ? ` (mutation: ${report.options.mutation})` : ''}`,
    `  ${s.store.kind} store · policy ${s.policy} · ${s.seedSkills} seed skills · ${plural(s.epochs.length, 'epoch')} · ${plural(roots, 'root session')}` +
      `${s.budgetTokens !== null ? ` · budget ${s.budgetTokens} tokens` : ''}`,
    `  limits: maxChildren ${s.limits.maxChildren}, maxOpsPerCommit ${s.limits.maxOpsPerCommit}, maxMergeQueue ${s.limits.maxMergeQueue}`,
    '',
  ];
  let epoch = -1;
  for (const entry of report.timeline) {
    if (entry.epoch !== epoch) {
      epoch = entry.epoch;
      lines.push(`epoch ${epoch}`);
    }
    const [who, what] = describeEvent(entry.event);
    lines.push(`  ${`+${entry.t}`.padStart(7)} ms  ${who.padEnd(18)} ${what}`);
  }
  lines.push('', 'invariants');
  for (const inv of report.invariants) {
    lines.push(`  ${inv.ok ? 'ok  ' : 'FAIL'} (${inv.id}) ${inv.name}`);
    for (const d of inv.detail) lines.push(`         ${d}`);
  }
  const st = report.stats;
  lines.push(
    '',
    `${plural(st.sessions, 'session')}, ${plural(st.merges, 'merge')}, ${st.acknowledged}/${st.appends} appends acknowledged, ${st.virtualMs} virtual ms`,
    '',
  );
  return lines.join('\n');
}

/** An event as [who, what happened]. */
export function describeEvent(event: TimelineEvent): [string, string] {
  switch (event.type) {
    case 'session.spawned':
      return [
        event.path.join('/'),
        `spawned${event.name ? ` "${event.name}"` : ''}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`,
      ];
    case 'session.committed':
      return [
        event.path.join('/'),
        `committed ${plural(event.ops, 'op')}${event.path.length === 1 ? ` (base revision ${event.baseRevision})` : ''}`,
      ];
    case 'session.merged': {
      const dropped =
        event.dropped.length > 0 ? `; dropped ${event.dropped.map((c) => `${c.type} ${c.skillId} (${c.reason})`).join(', ')}` : '';
      return [
        event.path.join('/'),
        `merged into ${event.into === 'root' ? `the book at revision ${event.revision}` : `${event.into}'s draft`}${dropped}`,
      ];
    }
    case 'session.rejected':
      return [
        event.path.join('/'),
        `rejected by ${event.into}: ${event.conflicts.map((c) => `${c.type} ${c.skillId} ${c.reason}`).join(', ')}`,
      ];
    case 'session.failed': {
      const f = event.failure;
      const lost =
        f.discarded.ops + f.discarded.descendants > 0
          ? `; discarded ${plural(f.discarded.ops, 'op')}, ${plural(f.discarded.descendants, 'descendant')}`
          : '';
      return [event.path.join('/'), `failed (${f.kind}): ${f.message}${lost}`];
    }
    case 'session.cancelled':
      return [event.path.join('/'), `cancelled: ${event.reason}`];
    case 'session.call':
      return [event.path.join('/'), event.call.type === 'model' ? `called ${event.call.model}` : `ran tool ${event.call.toolName}`];
    case 'merge.backpressure':
      return [event.path.join('/'), `waits for room in the merge queue (${event.queued} in flight)`];
    case 'runtime.defect':
      return ['runtime', `DEFECT ${event.error.name}: ${event.error.message}`];
    case 'sim.epoch':
      return ['sim', `epoch ${event.epoch} opens the ${event.store} store: ${plural(event.skills, 'skill')} at revision ${event.revision}`];
    case 'sim.crash':
      return ['sim', `CRASH (${event.mode}) before ${event.before}`];
    case 'sim.write':
      return [event.path.join('/'), `wrote ${event.ops.join(', ')}`];
    case 'sim.fault':
      return ['sim', `fault: ${event.fault}`];
    case 'sim.reopen':
      return [
        'sim',
        event.ok ? `reopened: ${plural(event.skills, 'skill')} at revision ${event.revision}` : `reopen FAILED: ${event.message ?? ''}`,
      ];
    case 'sim.external':
      return [
        'ace',
        `saved the document (${event.mode === 'reload' ? 'reloaded first' : 'from memory'}): ${event.ops.join(', ') || 'no change'}`,
      ];
    case 'sim.writers':
      return [
        'sim',
        `${event.runtimes} runtimes open the ${event.store} store at once: ${plural(event.skills, 'skill')} at revision ${event.revision}`,
      ];
    case 'sim.durable':
      return ['durable', event.what === 'crash' ? `CRASH of its process: ${event.detail}` : `${event.what} of the ${event.detail}`];
    case 'sim.unhandled':
      return ['sim', `UNHANDLED ${event.kind}: ${event.message}`];
    default:
      return ['store', describeNotice(event)];
  }
}

function describeNotice(event: Extract<TimelineEvent, { type: `store.${string}` }>): string {
  switch (event.type) {
    case 'store.saved':
      return `saved the document at revision ${event.revision} (${event.reason}, ${plural(event.entries, 'entry', 'entries')})`;
    case 'store.io_failed':
      return `io failed in ${event.operation} of ${event.file}: ${event.message}; ${event.refused} refused${event.poisoned ? '; refuses appends until reopened' : ''}`;
    case 'store.torn_tail_cut':
      return `cut a torn tail of ${event.file}: ${event.bytes} bytes at ${event.offset} (${event.reason})`;
    case 'store.lock_taken_over':
      return `took the writer lock over from pid ${event.previous.pid} (${event.reason})`;
    default:
      return `${event.type.slice('store.'.length).replace('_', ' ')} (revision ${'revision' in event ? event.revision : '?'})`;
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
