/**
 * `./pnpmw bench:docs [results.json …]`: writes the results tables of docs/performance.md from
 * the files `./pnpmw bench` wrote (default: `bench-results.json` in the current directory).
 * A full run rewrites the run's table and the peer comparison, a run of `--only 8` the soak's;
 * give both files to rewrite all three. Exits 1, changing nothing, on a file that is not a
 * results file or a document without the markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseResults, renderPerformanceDocs } from './renderPerformanceDocs.ts';

const docPath = fileURLToPath(new URL('../../../docs/performance.md', import.meta.url));
const files = process.argv.slice(2);
if (files.some((f) => f.startsWith('-'))) {
  console.error('usage: bench:docs [results.json …] (default: bench-results.json)');
  process.exit(2);
}

function fail(message: string): never {
  console.error(`bench:docs: ${message}; docs/performance.md is unchanged`);
  process.exit(1);
}

let doc = readFileSync(docPath, 'utf8');
for (const file of files.length > 0 ? files : ['bench-results.json']) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    fail(`cannot read ${file}: ${(cause as Error).message}`);
  }
  const parsed = parseResults(text, file);
  if (!parsed.ok) fail(parsed.error.message);
  const rendered = renderPerformanceDocs(doc, parsed.results);
  if (!rendered.ok) fail(`${file}: ${rendered.error.message}`);
  doc = rendered.text;
  console.log(`${file}: ${rendered.updated.join(', ')}`);
}
writeFileSync(docPath, doc);
console.log('docs/performance.md written');
