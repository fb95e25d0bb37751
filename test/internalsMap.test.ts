import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/internals/README.md tells a contributor where each step of a write happens. Each row
 * names files: a path from the repository's root (`packages/…`), or a file named after one
 * (`operationRules.ts`, `internal/Seams.ts`), beside that path or under its package's `src/`,
 * and pages of docs/internals. A row that names a file that moved or is gone fails here.
 */
const root = join(import.meta.dirname, '..');
const MAP = 'docs/internals/README.md';

const exists = (file: string): boolean => existsSync(join(root, file));

/** Each table row, and whether each file it names exists. */
function rowsOfFiles(text: string): { row: string; files: [string, boolean][] }[] {
  const rows = text.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| what'));
  return rows.map((row) => {
    const files: [string, boolean][] = [];
    let last = '';
    for (const [, name = ''] of row.matchAll(/`([\w./-]+\.ts)`/g)) {
      if (name.startsWith('packages/')) {
        last = name;
        files.push([name, exists(name)]);
        continue;
      }
      const src = last.slice(0, last.indexOf('/src/') + '/src/'.length);
      files.push([name, last !== '' && (exists(join(dirname(last), name)) || exists(join(src, name)))]);
    }
    for (const [, page = ''] of row.matchAll(/\]\(([\w./-]+\.md)\)/g)) files.push([page, exists(join('docs/internals', page))]);
    return { row: row.slice(0, 70), files };
  });
}

describe('the map of where things happen', () => {
  it('where things happen - every file a row of docs/internals/README.md names exists', () => {
    const rows = rowsOfFiles(readFileSync(join(root, MAP), 'utf8'));
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const { row, files } of rows) {
      expect(files.length, row).toBeGreaterThan(0);
      for (const [file, found] of files) expect([row, file, found]).toEqual([row, file, true]);
    }
  });
});
