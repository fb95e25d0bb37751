/**
 * LangGraph.js on W(n, k): the parent's fan-out is a conditional edge from `START` returning
 * one `Send` per child; each child is a run of one node whose isolated view is a local list,
 * returned as its update of an `inserts` channel with a concat reducer. A child that throws is
 * caught in the node and returns no update (letting it throw would fail the whole step). A
 * child with children of its own invokes the same graph inside its node, as a subgraph, and
 * returns its own inserts with what that run merged. The bench pins @langchain/langgraph 1.7.3
 * with @langchain/core 1.4.0.
 */
import { EventEmitter, setMaxListeners } from 'node:events';
import { Annotation, END, Send, START, StateGraph } from '@langchain/langgraph';
import { now } from '../../measure.ts';
import type { PeerRun, PeerSystem } from '../PeerSystem.ts';
import type { Insert, Workload } from '../Workload.ts';
import { crashesAt, insertInto, insertOf } from '../Workload.ts';

const State = Annotation.Root({
  path: Annotation<readonly number[]>,
  inserts: Annotation<Insert[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
type Graph = { invoke(input: { path: readonly number[] }): Promise<{ inserts: Insert[] }> };

function buildGraph(w: Workload): Graph {
  const graph: Graph = new StateGraph(State)
    .addNode('child', async ({ path }) => {
      try {
        const view: Insert[] = [];
        for (let j = 0; j < w.k; j++) await insertInto(view, insertOf(path, j));
        if (path.length < w.fanOut.length) view.push(...(await graph.invoke({ path })).inserts);
        if (crashesAt(path)) throw new Error('crash');
        return { inserts: view };
      } catch {
        return {};
      }
    })
    .addConditionalEdges(START, ({ path }) =>
      Array.from({ length: w.fanOut[path.length] ?? 0 }, (_, i) => new Send('child', { path: [...path, i] })),
    )
    .addEdge('child', END)
    .compile();
  return graph;
}

/** LangGraph.js: `Send` fan-out and a concat reducer. */
export const langGraphPeer: PeerSystem = {
  key: 'langgraph',
  name: 'LangGraph.js 1.7.3',
  async run(w: Workload): Promise<PeerRun> {
    const graph = buildGraph(w);
    // every subgraph run adds an abort listener to its parent run's signal: Node's warning
    // about more than 10 listeners is noise here
    const limit = EventEmitter.defaultMaxListeners;
    setMaxListeners(0);
    try {
      const t0 = now();
      const { inserts } = await graph.invoke({ path: [] });
      return { ms: now() - t0, kept: inserts };
    } finally {
      setMaxListeners(limit);
    }
  },
};
