import { Option } from 'commander';
import { z } from 'zod';
import type { RegisterCommand } from '../CliCommand.ts';
import { optionValue, wholeNumberOption } from '../optionValue.ts';

/** The options as commander hands them over. */
interface McpFlags {
  readonly memory?: true;
  readonly http?: { readonly host: string; readonly port: number };
  readonly readOnly?: true;
  readonly token?: string;
  readonly idleTimeout: number;
}

/** `[host:]port`: the host defaults to 127.0.0.1 (this machine only). */
const HttpAddress = z
  .string()
  .regex(/^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?\d{1,5}$/, 'expected [host:]port, e.g. 8808 or 127.0.0.1:8808')
  .transform((s) => {
    const at = s.lastIndexOf(':');
    const host = at < 0 ? '127.0.0.1' : s.slice(0, at).replace(/^\[(.*)\]$/, '$1');
    return { host, port: Number(s.slice(at + 1)) };
  })
  .pipe(z.object({ host: z.string(), port: z.number().int().max(65_535, 'expected a port up to 65535') }));

/**
 * `cohort mcp <book>`: serves a Skillbook (a file store's document, a `postgres://` URL, or
 * `--memory`) to MCP clients, over stdio (one client: the process that started it) or
 * Streamable HTTP (`--http`, many clients), until stdin ends or the process is interrupted.
 */
export const registerMcp: RegisterCommand = (program, { io, exit }) => {
  program
    .command('mcp')
    .description('serve a Skillbook to MCP clients (coding agents, assistants): tasks are isolated sessions that commit or abort')
    .argument('[book]', 'the store: its document (data/skillbook.json, created when missing) or a postgres:// URL')
    .option('--memory', 'a book in memory, gone when the server stops (to try it)')
    .addOption(
      new Option('--http <[host:]port>', 'serve Streamable HTTP at http://host:port/mcp instead of stdio (host: 127.0.0.1)').argParser(
        optionValue(HttpAddress),
      ),
    )
    .option('--read-only', 'reading tools only: no tasks, no writes')
    .option('--token <token>', 'with --http: require "Authorization: Bearer <token>" (default: $COHORT_MCP_TOKEN when set)')
    .addOption(
      wholeNumberOption(
        '--idle-timeout <seconds>',
        "drop a client's open tasks after this long without a request from it (0: never)",
        0,
        86_400 * 7,
      ).default(300),
    )
    .addHelpText(
      'after',
      '\nAn MCP client starts it as a command (stdio), e.g. in its JSON config:\n  { "mcpServers": { "skillbook": { "command": "npx", "args": ["cohort", "mcp", "data/skillbook.json"] } } }\n\nExamples:\n  cohort mcp data/skillbook.json\n  cohort mcp --memory\n  cohort mcp data/skillbook.json --http 8808 --token s3cret\n  cohort mcp postgres://postgres@127.0.0.1:5432/app --http 127.0.0.1:8808 --read-only\n',
    )
    .action(async (book: string | undefined, flags: McpFlags) => {
      if ((book === undefined) === (flags.memory === undefined)) {
        io.err.write('cohort mcp: give the book (a file or a postgres:// URL), or --memory\n');
        return exit(2);
      }
      if (flags.token !== undefined && flags.http === undefined) {
        io.err.write('cohort mcp: --token needs --http (over stdio, the client is the process that started the server)\n');
        return exit(2);
      }
      const token = flags.http ? (flags.token ?? (process.env.COHORT_MCP_TOKEN || undefined)) : undefined;
      const { runMcp } = await import('../mcp/runMcp.ts');
      exit(
        await runMcp(
          {
            book: book ?? null,
            http: flags.http ?? null,
            readOnly: flags.readOnly === true,
            token: token ?? null,
            idleTimeoutMs: flags.idleTimeout * 1000,
          },
          io,
        ),
      );
    });
};
