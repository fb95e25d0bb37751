import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block of docs/skillbook.md is a program: it is written out, with
 * `@cohort/skillbook` pointed at this package's source, and run here, so an example that no
 * longer works fails the build.
 */
const docs = fileURLToPath(new URL('../../../docs/skillbook.md', import.meta.url));
const source = pathToFileURL(fileURLToPath(new URL('../src/index.ts', import.meta.url))).href;
const examples = [...readFileSync(docs, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const scratch = mkdtempSync(join(tmpdir(), 'skillbook-docs-'));

describe('docs/skillbook.md examples run', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the guide has an example for each topic', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
  });

  examples.forEach((code, i) => {
    it(`example ${i + 1} runs and its assertions hold`, async () => {
      const path = join(scratch, `example${i + 1}.ts`);
      writeFileSync(path, `${code.replaceAll("'@cohort/skillbook'", `'${source}'`)}\nexport {};\n`);
      await expect(import(/* @vite-ignore */ pathToFileURL(path).href)).resolves.toBeDefined();
    });
  });
});
