import type { CliIo, CliOutput } from './CliIo.ts';

/** The streams a run writes to, and what to do with its error text once it has ended. */
export interface JsonErrors {
  readonly io: CliIo;
  /** Called with the exit code when the run has ended: writes what was held back. */
  finish(code: number): void;
}

/**
 * With `--json` in `argv`, a failing command's error text becomes one JSON value on stdout,
 * `{ "ok": false, "exitCode": 1, "error": "…" }`, so a program reading `--json` output never
 * gets a line of prose instead (or nothing, with the prose on stderr). Every command writes its
 * errors as lines on stderr; they are held back here and turned into that value when the
 * command printed nothing else. When it did print its result, they go to stderr as they are.
 * Progress bars are off with `--json`. Without `--json`, `io` is used as it is.
 *
 * @example
 * const errors = jsonErrors(argv, io);
 * const code = await run(errors.io);
 * errors.finish(code);
 */
export function jsonErrors(argv: readonly string[], io: CliIo): JsonErrors {
  const end = argv.indexOf('--');
  if (!(end < 0 ? argv : argv.slice(0, end)).includes('--json')) return { io, finish: () => {} };
  let printed = false;
  let held = '';
  const out: CliOutput = { write: (text: string) => ((printed = true), io.out.write(text)), isTTY: false };
  const err: CliOutput = { write: (text: string) => void (held += text), isTTY: false };
  return {
    io: { out, err },
    finish: (code) => {
      if (held === '') return;
      if (printed || code === 0) io.err.write(held);
      else io.out.write(`${JSON.stringify({ ok: false, exitCode: code, error: held.trimEnd() }, null, 2)}\n`);
    },
  };
}
