import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoScenario } from './DemoScenario.ts';

/**
 * The source text of a scenario's `body`, as written (the package ships its TypeScript
 * source beside dist/). Falls back to the compiled function's text when the source is absent.
 */
export function scenarioSource(scenario: DemoScenario): string {
  try {
    const path = sourcePath(fileURLToPath(scenario.module));
    const lines = readFileSync(path, 'utf8').split('\n');
    const start = lines.findIndex((l) => /^\s*body: async \(root\) => \{$/.test(l));
    const indent = (lines[start] ?? '').search(/\S/);
    const end = lines.findIndex((l, i) => i > start && l === `${' '.repeat(indent)}},`);
    if (start < 0 || end < 0) throw new Error('no body in the scenario module');
    return lines
      .slice(start + 1, end)
      .map((l) => l.slice(indent + 2))
      .join('\n');
  } catch {
    return scenario.body.toString();
  }
}

/** `…/dist/demo/x.js` (installed) → `…/src/demo/x.ts`; a source path stays as it is. */
function sourcePath(path: string): string {
  const at = path.lastIndexOf(`${sep}dist${sep}`);
  if (at < 0 || !path.endsWith('.js')) return path;
  return `${path.slice(0, at)}${sep}src${sep}${path.slice(at + 6, -3)}.ts`;
}
