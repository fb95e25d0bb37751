import { describe, expect, it } from 'vitest';
import { SimFs } from '@cohort/store';
import { sha256Hex } from '../../../src/internal/disk/digest.ts';
import type { DiskView } from '../../../src/internal/disk/DiskView.ts';
import { lookAtReplaced, retireReplaced, watchAfter } from '../../../src/internal/checkpoint/replacedFile.ts';
import { DOC } from '../../utils/simStore.ts';
import { openContext } from '../../utils/storeContext.ts';

const REPLACED = `${DOC}.replaced`;

describe('replacedFile', () => {
  it('watchAfter - a replaced document is watched with what it held; a late write keeps the old watch; anything else ends it', async () => {
    const { view } = await openContext(new SimFs());
    const watching: DiskView = { ...view, replaced: { identity: 'old', digest: 'd0' } };
    expect(watchAfter(watching, { identity: 'f1' }, 'd1')).toEqual({ identity: 'f1', digest: 'd1' });
    expect(watchAfter(watching, { identity: 'f1' }, null)).toBeNull();
    expect(watchAfter(watching, 'late', 'd1')).toBe(watching.replaced);
    expect(watchAfter(watching, null, 'd1')).toBe(watching.replaced);
    expect(watchAfter(watching, 'kept', 'd1')).toBeNull();
    expect(watchAfter(watching, 'created', 'd1')).toBeNull();
  });

  it('lookAtReplaced - tells an unchanged file from one written late; retireReplaced removes only an unchanged one', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    sim.write(REPLACED, 'what we replaced');
    const stat = await ctx.fs.stat(REPLACED);
    const watched: DiskView = { ...view, replaced: { identity: stat?.identity ?? '', digest: sha256Hex('what we replaced') } };
    expect((await lookAtReplaced(ctx, watched)).kind).toBe('unchanged');
    expect(await retireReplaced(ctx, watched)).toMatchObject({ replaced: null });
    expect(sim.read(REPLACED)).toBeUndefined();
    sim.write(REPLACED, 'what we replaced');
    const again = await ctx.fs.stat(REPLACED);
    const late: DiskView = { ...view, replaced: { identity: again?.identity ?? '', digest: sha256Hex('something else') } };
    expect((await lookAtReplaced(ctx, late)).kind).toBe('written');
    await retireReplaced(ctx, late);
    expect(sim.readText(REPLACED)).toBe('what we replaced');
  });
});
