import { describe, expect, it } from 'vitest';
import { SimFs } from '@cohort/store';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('SimFs', () => {
  it('power loss - keeps synced bytes and a prefix of what was appended since', async () => {
    const sim = new SimFs({ seed: 3 });
    const fs = sim.mount();
    await fs.mkdir('/d');
    const h = await fs.openAppend('/d/log');
    await h.append(enc('synced;'));
    await h.sync();
    await fs.syncDir('/d');
    await h.append(enc('not synced'));
    sim.crash({ tear: { bytes: () => 3, dirOps: (_, n) => n } });
    expect(sim.readText('/d/log')).toBe('synced;not'.slice(0, 'synced;'.length + 3));
    await expect(fs.stat('/d/log')).rejects.toMatchObject({ code: 'ESIMCRASH' });
  });

  it('power loss - a rename without a directory fsync may be lost, and is never half done', async () => {
    for (const keep of [0, 1]) {
      const sim = new SimFs();
      const fs = sim.mount();
      await fs.mkdir('/d');
      await fs.writeFile('/d/a', enc('old'), { sync: true });
      await fs.syncDir('/d');
      await fs.writeFile('/d/a.tmp', enc('new'), { sync: true });
      await fs.rename('/d/a.tmp', '/d/a');
      sim.crash({ tear: { bytes: (_, n) => n, dirOps: () => keep + 1 } });
      // ops: create a.tmp, rename; keeping only the first leaves the old file and the temp file
      expect(sim.readText('/d/a')).toBe(keep === 0 ? 'old' : 'new');
      expect(sim.list('/d')).toEqual(keep === 0 ? ['a', 'a.tmp'] : ['a']);
    }
  });

  it('process kill - everything written stays visible, synced or not', async () => {
    const sim = new SimFs();
    const fs = sim.mount();
    await fs.mkdir('/d');
    await fs.writeFile('/d/f', enc('unsynced'));
    fs.kill();
    await expect(fs.readFile('/d/f')).rejects.toMatchObject({ code: 'ESIMCRASH' });
    expect(sim.readText('/d/f')).toBe('unsynced');
    expect(sim.mount().process.isAlive(fs.process.pid)).toBe(false);
  });

  it('faults - a failed fsync rejects with EIO and makes nothing durable', async () => {
    const sim = new SimFs();
    const fs = sim.mount();
    await fs.mkdir('/d');
    await fs.writeFile('/d/f', enc('a'), { sync: true });
    await fs.syncDir('/d');
    sim.failSync({ path: '/d/f' });
    await expect(fs.writeFile('/d/f', enc('b'), { sync: true })).rejects.toMatchObject({ code: 'EIO' });
    sim.crash({ tear: { bytes: () => 0, dirOps: (_, n) => n } });
    expect(sim.readText('/d/f')).toBe('a');
  });

  it('faults - crashAfter and crashOn crash between two writes, and the next mount sees what survived', async () => {
    const sim = new SimFs();
    const fs = sim.mount();
    await fs.mkdir('/d');
    sim.crashOn((op) => op.kind === 'rename');
    await fs.writeFile('/d/x.tmp', enc('x'), { sync: true });
    await expect(fs.rename('/d/x.tmp', '/d/x')).rejects.toMatchObject({ code: 'ESIMCRASH' });
    expect(sim.crashPending).toBe(false);
    const next = sim.mount();
    expect(await next.readFile('/d/x')).toBeUndefined();
    const before = sim.ops;
    sim.crashAfter(1, { mode: 'process' });
    await next.writeFile('/d/y', enc('y'));
    await expect(next.writeFile('/d/z', enc('z'))).rejects.toMatchObject({ code: 'ESIMCRASH' });
    expect(sim.ops - before).toBe(1);
    expect(sim.readText('/d/y')).toBe('y');
    expect(sim.count('write', '/d/y')).toBe(1);
  });

  it('links - a second name shares the file: a write in place shows under both', async () => {
    const sim = new SimFs();
    const fs = sim.mount();
    await fs.mkdir('/d');
    await fs.writeFile('/d/doc', enc('v1'));
    await fs.link('/d/doc', '/d/doc.old');
    await expect(fs.link('/d/doc', '/d/doc.old')).rejects.toMatchObject({ code: 'EEXIST' });
    sim.write('/d/doc', 'v2');
    expect(sim.readText('/d/doc.old')).toBe('v2');
    expect((await fs.stat('/d/doc'))?.identity).toBe((await fs.stat('/d/doc.old'))?.identity);
  });
});
