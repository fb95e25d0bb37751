import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block in README.md, docs/*.md and docs/internals/*.md is a program: it is written out and run here,
 * each in a process of its own, as a reader would run it (`tsx example.ts`), so an example that
 * no longer works fails the build — and so does one that works but never exits (a timer, a
 * socket or a server it left open). Blocks that are not meant to run use another language tag
 * (```text).
 */
const root = join(import.meta.dirname, '..');
const scratch = join(root, 'test', '.docs-examples');
/** How long an example may take, exit included. */
const TIME_LIMIT_MS = 45_000;

function examples(file: string): { name: string; code: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({ name: `${file} example ${i + 1}`, code: m[1] ?? '' }));
}

const markdownIn = (dir: string): string[] =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${dir}/${f}`);
const files = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/internals')];

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

/** Runs `path` with tsx in a process of its own; killed when it has not exited within the time limit. */
function runExample(path: string): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: TIME_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, output: output.length > 4_000 ? `…${output.slice(-4_000)}` : output }));
  });
}

describe.concurrent('documentation examples run, each in its own process, and exit', () => {
  mkdirSync(scratch, { recursive: true });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  for (const file of files) {
    for (const [i, example] of examples(file).entries()) {
      it(
        example.name,
        async () => {
          const path = join(scratch, `${file.replace(/[/.]/g, '_')}_${i}.ts`);
          writeFileSync(path, `${example.code}\nexport {};\n`);
          const exit = await runExample(path);
          const verdict =
            exit.signal === 'SIGKILL'
              ? `did not exit within ${TIME_LIMIT_MS / 1000} s (it left something open)`
              : `exited ${exit.code ?? exit.signal}`;
          expect({ code: exit.code, signal: exit.signal }, `${example.name} ${verdict}:\n${exit.output}`).toEqual({
            code: 0,
            signal: null,
          });
        },
        TIME_LIMIT_MS + 15_000,
      );
    }
  }
});
