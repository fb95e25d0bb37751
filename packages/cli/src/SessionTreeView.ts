import type { RuntimeEvent } from '@cohort/runtime';

interface Row {
  readonly id: string;
  readonly parentId: string | null;
  readonly name: string | undefined;
  status: string;
}

/**
 * Collects `rt.events$` into a session tree and renders it for people:
 *
 *     s1 root ............ committed (1 op) into the book at revision 2
 *     ├─ s2 A ............ committed (1 op) into s1's draft
 *     └─ s3 B ............ failed (crashed): simulated crash; discarded 1 op
 *
 * "Revision" is only ever the book's: a child merges into its parent's draft, whose own counter
 * (a step of the draft) is a different one.
 */
export class SessionTreeView {
  private readonly rows = new Map<string, Row>();

  /** Feeds one runtime event. */
  observe(event: RuntimeEvent): void {
    if (event.type === 'session.spawned') {
      this.rows.set(event.sessionId, { id: event.sessionId, parentId: event.parentId, name: event.name, status: 'running' });
      return;
    }
    const row = 'sessionId' in event ? this.rows.get(event.sessionId) : undefined;
    if (!row) return;
    if (event.type === 'session.merged') {
      const dropped = event.dropped.length > 0 ? `; dropped ${event.dropped.map((c) => `${c.type} ${c.skillId}`).join(', ')}` : '';
      row.status = `committed (${plural(event.ops, 'op')}) into ${event.into === 'root' ? `the book at revision ${event.revision}` : `${event.into}'s draft`}${dropped}`;
    } else if (event.type === 'session.failed') {
      const f = event.failure;
      const discarded =
        f.discarded.ops + f.discarded.descendants > 0
          ? `; discarded ${plural(f.discarded.ops, 'op')}${f.discarded.descendants ? ` and ${plural(f.discarded.descendants, 'descendant')}` : ''}`
          : '';
      row.status = `failed (${f.kind}): ${f.message}${discarded}`;
    }
  }

  /** A session's label: its name when it has one (`A`), else its id. */
  nameOf(id: string): string {
    return this.rows.get(id)?.name ?? id;
  }

  /** The tree, one line per session. */
  render(indent = '  '): string {
    const lines: string[] = [];
    const children = (id: string | null) => [...this.rows.values()].filter((r) => r.parentId === id);
    const labels = [...this.rows.values()].map((r) => label(r).length + 3 * depthOf(r, this.rows));
    const width = Math.max(0, ...labels) + 2;
    const walk = (row: Row, prefix: string, last: boolean, depth: number) => {
      const branch = depth === 0 ? '' : last ? '└─ ' : '├─ ';
      const text = `${prefix}${branch}${label(row)}`;
      lines.push(`${indent}${text} ${'.'.repeat(Math.max(2, width - text.length))} ${row.status}`);
      const kids = children(row.id);
      kids.forEach((k, i) => walk(k, depth === 0 ? '' : prefix + (last ? '   ' : '│  '), i === kids.length - 1, depth + 1));
    };
    for (const root of children(null)) walk(root, '', true, 0);
    return lines.join('\n');
  }
}

function label(row: Row): string {
  return row.name ? `${row.id} ${row.name}` : row.id;
}

function depthOf(row: Row, rows: ReadonlyMap<string, Row>): number {
  let d = 0;
  for (let p = row.parentId; p; p = rows.get(p)?.parentId ?? null) d++;
  return d;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
