import type { Bodies } from '../../src/Bodies.ts';
import { runUnit } from '../../src/internal/UnitRun.ts';
import type { UnitHost } from '../../src/internal/UnitRun.ts';
import { UnitResultSchema, UnitSpecSchema } from '../../src/UnitSpec.ts';
import type { UnitResult, UnitSpec } from '../../src/UnitSpec.ts';
import { memoryHost } from './memoryHost.ts';

/**
 * A worker's host whose child units run in this process, each recorded once by its id as DBOS
 * records a workflow's result: a unit asked for again gets its recorded result and does not
 * run. Specs and results go through JSON and their schemas, as they do through DBOS.
 */
export function unitsInMemory(bodies: Bodies): {
  readonly host: UnitHost;
  /** Every child unit started, in start order. */
  readonly started: string[];
  /** Runs the run's root unit (again: a run resumed after a crash, its recorded children not run again). */
  root(unitId: string, body: string, input?: unknown): Promise<UnitResult>;
} {
  const recorded = new Map<string, unknown>();
  const started: string[] = [];
  const host: UnitHost = memoryHost(bodies, async (spec) => {
    const found = recorded.get(spec.unitId);
    if (found !== undefined) return UnitResultSchema.parse(JSON.parse(JSON.stringify(found))) as UnitResult;
    started.push(spec.unitId);
    const result = await runUnit(host, UnitSpecSchema.parse(JSON.parse(JSON.stringify(spec))) as UnitSpec);
    recorded.set(spec.unitId, result);
    return UnitResultSchema.parse(JSON.parse(JSON.stringify(result))) as UnitResult;
  });
  return {
    host,
    started,
    root: (unitId, body, input = null) => runUnit(host, { unitId, body, input, view: { baseRevision: 0, ops: [] } }),
  };
}
