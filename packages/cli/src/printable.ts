import type { CliOutput } from './CliIo.ts';

/**
 * Control characters a terminal acts on instead of showing: C0 (but tab and, in multi-line
 * text, newline), DEL, C1, and the Unicode line separators and bidirectional overrides that
 * make text read other than it is.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_OR_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` safe to write to a terminal: every control character shown as an escape (`\x1b`,
 * `\r`, `\u202e`) instead of acting — skill text, ids and session names come from models and
 * other programs, and raw ESC, OSC, BEL or CR in them would clear the screen, set the window
 * title or overwrite lines. With `multiline`, newlines and tabs stay (the prompt view is
 * multi-line); otherwise a newline is escaped too, so one value stays on one line. `--json`
 * output is never passed through this: JSON escapes control characters itself.
 *
 * @example
 * printable('ok\u001b]0;pwned\u0007'); // 'ok\\x1b]0;pwned\\x07'
 */
export function printable(text: string, options: { readonly multiline?: boolean } = {}): string {
  return text.replace(options.multiline ? CONTROL : CONTROL_OR_NEWLINE, escaped);
}

/**
 * `out` with every write passed through {@link printable} (multi-line): what a `cohort book` view
 * prints for people never reaches the terminal as control characters, whichever value it came
 * from. `--json` output is written to the stream itself, exact.
 */
export function printableOutput(out: CliOutput): CliOutput {
  return {
    write: (text: string) => out.write(printable(text, { multiline: true })),
    ...(out.isTTY === undefined ? {} : { isTTY: out.isTTY }),
    ...(out.columns === undefined ? {} : { columns: out.columns }),
  };
}
