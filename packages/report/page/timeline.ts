import type { RunRecord, SessionRecord } from '../src/Recording.ts';
import { s } from './dom.ts';
import { duration, label, offset, statusText } from './format.ts';
import { runSpan } from './model.ts';

const WIDTH = 960;
const LABELS = 150;
const AXIS = 26;

/**
 * The run's timeline on one time axis (SVG): a bar per session (`g.bar[data-bar-for]`) from
 * spawn to commit or failure, split by machine state, a diamond where it merged, a cross where
 * it failed; store notices as labelled vertical lines, back-pressure and defects as ticks.
 */
export function renderTimeline(
  run: RunRecord,
  order: readonly SessionRecord[],
  selected: string | null,
  select: (id: string) => void,
): SVGSVGElement {
  const { start, end } = runSpan(run);
  const rowH = order.length <= 300 ? 18 : order.length <= 2000 ? 6 : 3;
  const height = AXIS + order.length * rowH + 12;
  const x = (t: number): number => LABELS + (Math.max(0, t - start) / (end - start)) * (WIDTH - LABELS - 36);
  const svg = s('svg', {
    class: 'timeline',
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: WIDTH,
    height,
    role: 'img',
    'aria-label': `timeline of ${order.length} sessions over ${duration(end - start)}`,
  });
  svg.append(axis(start, end, x, height));
  order.forEach((session, i) => svg.append(bar(session, AXIS + i * rowH, rowH, x, end, start, session.id === selected, select)));
  for (const n of run.notices) {
    svg.append(
      s(
        'g',
        { class: `notice notice-${n.notice.type.replace('store.', '')}` },
        s('line', { x1: x(n.seenAt), x2: x(n.seenAt), y1: AXIS - 6, y2: height - 8 }),
        s('title', {}, `${n.notice.type} ${offset(n.seenAt, start)}`),
      ),
    );
  }
  for (const m of run.marks) {
    svg.append(
      s(
        'g',
        { class: `mark mark-${m.type}` },
        s('path', { d: `M${x(m.at)} ${AXIS - 8} l4 6 l-8 0 z` }),
        s(
          'title',
          {},
          m.type === 'backpressure'
            ? `back-pressure: ${m.sessionId} waits (${m.queued} in flight) ${offset(m.at, start)}`
            : `runtime defect: ${m.error.message}`,
        ),
      ),
    );
  }
  return svg;
}

function axis(start: number, end: number, x: (t: number) => number, height: number): SVGGElement {
  const g = s('g', { class: 'axis' });
  const step = niceStep((end - start) / 6);
  for (let t = 0; t <= end - start + 1e-9; t += step) {
    g.append(
      s('line', { x1: x(start + t), x2: x(start + t), y1: AXIS - 4, y2: height - 8 }),
      s('text', { x: x(start + t), y: 12, 'text-anchor': 'middle' }, duration(t)),
    );
  }
  return g;
}

function bar(
  session: SessionRecord,
  y: number,
  rowH: number,
  x: (t: number) => number,
  now: number,
  start: number,
  selected: boolean,
  select: (id: string) => void,
): SVGGElement {
  const endAt = session.endedAt ?? now;
  const h = Math.max(1, rowH - (rowH > 6 ? 5 : 1));
  const g = s('g', {
    class: `bar status-${session.status}${selected ? ' selected' : ''}`,
    'data-bar-for': session.id,
    onclick: () => select(session.id),
  });
  g.append(
    s(
      'title',
      {},
      `${label(session)} (${session.id}): ${statusText(session)}, ${offset(session.spawnedAt, start)} → ${session.endedAt === null ? 'live' : offset(endAt, start)}`,
    ),
  );
  if (rowH >= 14) g.append(s('text', { x: LABELS - 6, y: y + h - 2, 'text-anchor': 'end', class: 'label' }, label(session)));
  // one segment per machine state that lasted until the next one (the final state has no length)
  session.states.forEach((st, i) => {
    if (st.state === 'committed' || st.state === 'failed') return;
    const to = session.states[i + 1]?.at ?? endAt;
    g.append(s('rect', { class: `seg seg-${st.state}`, x: x(st.at), y, width: Math.max(1.5, x(to) - x(st.at)), height: h }));
  });
  if (session.merge) {
    const mx = x(session.merge.at);
    g.append(
      s('path', {
        class: 'merge',
        d: `M${mx} ${y - 1} l${h / 2 + 1} ${h / 2 + 1} l${-h / 2 - 1} ${h / 2 + 1} l${-h / 2 - 1} ${-h / 2 - 1} z`,
      }),
    );
  }
  if (session.failure && rowH >= 6) {
    const fx = x(endAt);
    g.append(s('path', { class: 'cross', d: `M${fx - 3} ${y} l6 ${h} M${fx + 3} ${y} l-6 ${h}` }));
  }
  return g;
}

function niceStep(raw: number): number {
  const pow = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  const unit = raw / pow;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * pow;
}
