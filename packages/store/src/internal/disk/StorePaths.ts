import { basename, dirname, join } from 'node:path';

/** The files of one file store, all beside the document. */
export interface StorePaths {
  readonly document: string;
  readonly dir: string;
  /** The document's name without `.json`, for recovery copies. */
  readonly stem: string;
  readonly journal: string;
  readonly ledger: string;
  /** The document as of the ledger's revision, kept by Cohort alone (other writers rewrite the document). */
  readonly base: string;
  /** The book of the ledger's checkpoint in a compact encoding, tied to the document's digest: read instead of the base when it matches. */
  readonly snapshot: string;
  readonly lock: string;
  readonly conflicts: string;
  /** The document's previous file, kept under a second name after a checkpoint replaced it, to catch a write that landed in it late. */
  readonly replaced: string;
  /** The book the store was created with: the first change of its history (none for a store created empty). */
  readonly origin: string;
}

/** The file names beside `document` (see docs/persistence.md, "The files"). */
export function storePaths(document: string): StorePaths {
  const dir = dirname(document);
  const name = basename(document);
  return {
    document,
    dir,
    stem: name.endsWith('.json') ? name.slice(0, -'.json'.length) : name,
    journal: `${document}.journal`,
    ledger: `${document}.ledger`,
    base: `${document}.base`,
    snapshot: `${document}.snapshot`,
    lock: `${document}.lock`,
    conflicts: `${document}.conflicts`,
    replaced: `${document}.replaced`,
    origin: `${document}.origin`,
  };
}

/** The temporary name a file is written under before it is renamed into place. */
export function tempPath(path: string): string {
  return `${path}.cohort-tmp`;
}

/**
 * Whether `name` (in the document's directory) is a temporary file of this store's: of the
 * document or a side file (`skillbook.json.cohort-tmp`, `skillbook.json.base.cohort-tmp`, …) or
 * of a recovery copy. None is needed once the store is open: a checkpoint's temporary files that
 * hold the ledger's revision are renamed into place first.
 */
export function isTemporary(paths: StorePaths, name: string): boolean {
  if (!name.endsWith('.cohort-tmp')) return false;
  const document = basename(paths.document);
  return name.startsWith(`${document}.`) || name.startsWith(`${paths.stem}.recovery-`);
}

/** The path of a recovery copy named `name`, beside the document. */
export function copyPath(paths: StorePaths, name: string): string {
  return join(paths.dir, name);
}
