import cliProgress from 'cli-progress';
import type { CliOutput } from './CliIo.ts';

/** A progress bar on a terminal, or nothing. */
export interface ProgressBar {
  /** Moves the bar to `value`, with new `{placeholders}` for its format. */
  update(value: number, payload?: Readonly<Record<string, string>>): void;
  /** Moves the total (when the amount of work becomes known). */
  setTotal(total: number): void;
  /** Removes the bar from the terminal. */
  stop(): void;
}

const NONE: ProgressBar = { update: () => {}, setTotal: () => {}, stop: () => {} };

/**
 * Starts a progress bar (cli-progress) on `stream` when it is a terminal, else a bar that
 * draws nothing: a pipe, a file or a CI log never gets control characters. The bar is
 * cleared when it stops, so only the result stays on screen.
 *
 * @example
 * const bar = startProgress(io.err, 300, '{bar} {value}/{total} seeds{note}', { note: '' });
 * bar.update(1, { note: '' });
 * bar.stop();
 */
export function startProgress(
  stream: CliOutput,
  total: number,
  format: string,
  payload: Readonly<Record<string, string>> = {},
): ProgressBar {
  if (stream.isTTY !== true) return NONE;
  const bar = new cliProgress.SingleBar({
    // cli-progress writes through `write` and node:readline's cursor helpers, which only call `write`
    stream: stream as unknown as NodeJS.WritableStream,
    format,
    barsize: 30,
    barCompleteChar: '#',
    barIncompleteChar: '.',
    clearOnComplete: true,
    hideCursor: true,
    fps: 10,
  });
  bar.start(total, 0, { ...payload });
  return {
    update: (value, next) => bar.update(value, next ? { ...next } : {}),
    setTotal: (n) => bar.setTotal(n),
    stop: () => bar.stop(),
  };
}
