/**
 * `@cohort/store-postgres`: the Skillbook in PostgreSQL, shared by many processes and
 * machines. {@link PostgresStore} implements the `Store` interface of `@cohort/store` and
 * passes its conformance suite. See docs/postgres.md.
 */
export { PostgresStore } from './PostgresStore.ts';
export type { PostgresStoreOptions } from './PostgresStoreOptions.ts';
export type { ImportResult } from './ImportResult.ts';
export { inspectPostgres } from './inspectPostgres.ts';
