/**
 * The line protocol between a merging child process and the tests that kill it. Any child
 * that prints these lines can be driven by the kill and two-process tests: today's child
 * drives a FileStore with concurrent committers directly; a child running a Cohort runtime
 * can print the same lines from its acknowledgements.
 *
 * - `READY {"writerId","revision"}` once the store is open;
 * - `ACK {"session","revision","ops","adds":[{"id","issue"}]}` after each acknowledged merge,
 *   with the ADDs' final ids (after any re-mapping);
 * - `DONE {"acks"}` when it finished by itself.
 */
export interface AckLine {
  readonly session: string;
  readonly revision: number;
  readonly ops: number;
  readonly adds: readonly { readonly id: string; readonly issue: string }[];
}

/** What a child process said, line by line. */
export type ChildLine =
  | { readonly kind: 'ready'; readonly writerId: string; readonly revision: number }
  | { readonly kind: 'ack'; readonly ack: AckLine }
  | { readonly kind: 'done'; readonly acks: number }
  | { readonly kind: 'other'; readonly text: string };

/** Formats one protocol line (with its newline). */
export function formatLine(kind: 'READY' | 'ACK' | 'DONE', payload: unknown): string {
  return `${kind} ${JSON.stringify(payload)}\n`;
}

/** Parses one line a child printed. */
export function parseLine(text: string): ChildLine {
  const space = text.indexOf(' ');
  const head = space < 0 ? text : text.slice(0, space);
  const body = space < 0 ? '' : text.slice(space + 1);
  try {
    if (head === 'READY') return { kind: 'ready', ...(JSON.parse(body) as { writerId: string; revision: number }) };
    if (head === 'ACK') return { kind: 'ack', ack: JSON.parse(body) as AckLine };
    if (head === 'DONE') return { kind: 'done', acks: (JSON.parse(body) as { acks: number }).acks };
  } catch {
    // a line cut by SIGKILL: not an acknowledgement
  }
  return { kind: 'other', text };
}
