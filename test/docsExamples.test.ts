import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block in README.md, docs/*.md and docs/internals/*.md is a program: it is written
 * out and run here, so an example that no longer works fails the build. Blocks that are not meant to run use
 * another language tag (```text).
 */
const root = join(import.meta.dirname, '..');
const scratch = join(root, 'test', '.docs-examples');

function examples(file: string): { name: string; code: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({ name: `${file} example ${i + 1}`, code: m[1] ?? '' }));
}

const markdownIn = (dir: string): string[] => readdirSync(join(root, dir)).filter((f) => f.endsWith('.md')).map((f) => `${dir}/${f}`);
const files = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/internals')];

describe('documentation examples run', () => {
  mkdirSync(scratch, { recursive: true });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  for (const file of files) {
    for (const [i, example] of examples(file).entries()) {
      it(example.name, async () => {
        const path = join(scratch, `${file.replace(/[/.]/g, '_')}_${i}.ts`);
        writeFileSync(path, `${example.code}\nexport {};\n`);
        await expect(import(path)).resolves.toBeDefined();
      });
    }
  }
});
