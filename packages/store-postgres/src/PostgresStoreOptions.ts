import { z } from 'zod';
import type { Skillbook } from '@cohort/skillbook';
import { resolveSharedOptions } from '@cohort/store/adapter';
import type { ResolvedSharedOptions } from '@cohort/store/adapter';
import type { StoreClock } from '@cohort/store';

/** Options of {@link PostgresStore.open}; all but `url` have a default. */
export interface PostgresStoreOptions {
  /** The database, as a connection string: `postgres://user@host:5432/db` (a `?schema=` parameter names the schema). */
  readonly url: string;
  /** The PostgreSQL schema that holds the store's tables (default `cohort`, or the URL's `?schema=`); created when absent. */
  readonly schema?: string;
  /** This writer's id in the commits it writes (default: random per open). */
  readonly writerId?: string;
  /** The book a store that does not exist yet is created with (default: empty). */
  readonly initialBook?: Skillbook;
  /** Create the schema and the store when they do not exist (default true). */
  readonly create?: boolean;
  /** Connections in the pool (default 4). */
  readonly poolSize?: number;
  /** How long to wait for a connection, in ms (default 5,000); past it an append resolves as an `io` failure. */
  readonly connectTimeoutMs?: number;
  /** How long a statement may run, in ms (default 30,000). */
  readonly statementTimeoutMs?: number;
  /**
   * How long to keep trying to learn whether a group whose `COMMIT` got no answer (the
   * connection broke) was committed, in ms (default 60,000). Past it the store refuses every
   * further append until it is reopened, as it cannot say what is in the database.
   */
  readonly inDoubtTimeoutMs?: number;
  /** Listen for other writers' revisions with `LISTEN`/`NOTIFY` (default true). */
  readonly listen?: boolean;
  /** Time and timers (default: the system clock). */
  readonly clock?: StoreClock;
}

/** {@link PostgresStoreOptions} with every default filled in. */
export interface ResolvedPostgresOptions extends ResolvedSharedOptions {
  readonly url: string;
  readonly schema: string;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly inDoubtTimeoutMs: number;
  readonly listen: boolean;
  /** The URL as notices and errors show it: no password, the schema as `?schema=`. */
  readonly display: string;
}

/** A schema name the store accepts: a plain lower-case SQL identifier (no quoting surprises). */
export const SchemaNameSchema = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case identifier: letters, digits and _, at most 63');

const OptionsSchema = z.object({
  url: z.string().min(1),
  schema: SchemaNameSchema.optional(),
  writerId: z.string().min(1).max(200).optional(),
  create: z.boolean().optional(),
  poolSize: z.number().int().min(1).max(100).optional(),
  connectTimeoutMs: z.number().int().positive().optional(),
  statementTimeoutMs: z.number().int().positive().optional(),
  inDoubtTimeoutMs: z.number().int().nonnegative().optional(),
  listen: z.boolean().optional(),
});

/** The connection string without its `schema` parameter, the schema it names, and the URL for people. */
export function splitUrl(url: string): { readonly connection: string; readonly schema: string | null; readonly display: string } | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a URL: ${urlAsGiven(url)}`;
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') return `not a postgres:// URL (${parsed.protocol})`;
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const connection = parsed.toString();
  const shown = new URL(connection);
  if (shown.password) shown.password = '***';
  return { connection, schema, display: shown.toString() };
}

/** `url` as it was given, query and all, for an error about it: only the password is hidden. */
export function urlAsGiven(url: string): string {
  try {
    const shown = new URL(url);
    if (shown.password) shown.password = '***';
    return shown.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/** The options resolved, or why they cannot be used (one line per bad option). */
export function resolvePostgresOptions(options: PostgresStoreOptions): ResolvedPostgresOptions | string {
  const checked = OptionsSchema.safeParse(options);
  if (!checked.success) return checked.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ');
  const url = splitUrl(options.url);
  if (typeof url === 'string') return `url: ${url}`;
  const schema = options.schema ?? url.schema ?? 'cohort';
  const named = SchemaNameSchema.safeParse(schema);
  if (!named.success) return `schema: ${named.error.issues[0]?.message ?? 'not a schema name'}`;
  const display = `${url.display}${url.display.includes('?') ? '&' : '?'}schema=${schema}`;
  return {
    ...resolveSharedOptions(options, 'pg'),
    url: url.connection,
    schema,
    poolSize: options.poolSize ?? 4,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    statementTimeoutMs: options.statementTimeoutMs ?? 30_000,
    inDoubtTimeoutMs: options.inDoubtTimeoutMs ?? 60_000,
    listen: options.listen ?? true,
    display,
  };
}
