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
/** How long an example may take to run its last line (a loaded machine is slow, not wrong). */
const RUN_LIMIT_MS = 150_000;
/** How long an example may take to exit once its last line has run: longer, it left something open. */
const EXIT_LIMIT_MS = 10_000;
/** Printed after an example's last line, so its exit can be timed apart from its run. */
const FINISHED = '\u0000example finished\u0000';

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
  /** Whether its last line had run. */
  readonly finished: boolean;
  readonly output: string;
}

/**
 * Runs `path` with tsx in a process of its own; killed when it has not exited within
 * {@link EXIT_LIMIT_MS} of its last line, or not run that far within {@link RUN_LIMIT_MS}.
 */
function runExample(path: string): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: RUN_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    let output = '';
    let finished = false;
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (finished || !output.includes(FINISHED)) return;
      finished = true;
      output = output.replace(FINISHED, '');
      setTimeout(() => child.kill('SIGKILL'), EXIT_LIMIT_MS).unref();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', (code, signal) =>
      resolve({ code, signal, finished, output: output.length > 4_000 ? `…${output.slice(-4_000)}` : output }),
    );
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
          writeFileSync(path, `${example.code}\nprocess.stderr.write(${JSON.stringify(FINISHED)});\nexport {};\n`);
          const exit = await runExample(path);
          const verdict =
            exit.signal !== 'SIGKILL'
              ? `exited ${exit.code ?? exit.signal}`
              : exit.finished
                ? `ran to its end but did not exit within ${EXIT_LIMIT_MS / 1000} s (it left something open)`
                : `did not run to its end within ${RUN_LIMIT_MS / 1000} s`;
          expect({ code: exit.code, signal: exit.signal }, `${example.name} ${verdict}:\n${exit.output}`).toEqual({
            code: 0,
            signal: null,
          });
        },
        RUN_LIMIT_MS + EXIT_LIMIT_MS + 15_000,
      );
    }
  }
});
