import { afterEach, describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { addOp, makeCommit } from '@cohort/store/testing';
import { PgStores } from './utils/openPg.ts';
import { sql } from './utils/pgSchema.ts';

const stores = new PgStores();
afterEach(() => stores.cleanup());

describe('PostgresStore and lone surrogates', () => {
  it('import - an ACE document with a lone surrogate escape holds U+FFFD in the book, the skills table and the history alike; a commit with one is refused', async () => {
    const schema = stores.schema('lone');
    const ace = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'lone MARK here', insight: 'x' }] });
    if (!ace.ok) throw new Error(ace.error.message);
    const store = await stores.open({ schema, listen: false });
    const imported = await store.importDocument(ace.book.toJSON().replace('MARK', '\\ud800'));
    expect(imported.ok).toBe(true);
    const text = 'lone \uFFFD here';
    expect(store.book.get('context-00001')?.issue).toBe(text);
    const refused = await store.append(makeCommit(store.book, [addOp('bad \uDC00')]).commit);
    expect(refused.ok ? null : refused.error.code).toBe('invalid_commit');
    await store.close();
    const [row] = await sql<{ issue: string }>(`SELECT issue FROM "${schema}".skills WHERE id = 'context-00001'`);
    expect(row?.issue).toBe(text);
    const again = await stores.open({ schema, listen: false });
    expect(again.book.get('context-00001')?.issue).toBe(text);
    const history = await again.history();
    expect(history.ok && history.commits[0]?.external?.skills[0]?.issue).toBe(text);
    expect(history.ok && history.commits).toHaveLength(1);
  });
});
