import { describe, expect, it } from 'vitest';
import { callSkillTool, createRuntime } from '@cohort/runtime';
import type { SkillToolName } from '@cohort/runtime';

/** Arguments whose reading throws, each a way a hostile or broken caller can hand them over. */
function hostile(): { what: string; args: unknown }[] {
  const cycle: Record<string, unknown> = { section: 'context', issue: 'x' };
  cycle['insight_source'] = cycle;
  return [
    {
      what: 'a throwing getter',
      args: {
        section: 'context',
        get issue(): string {
          throw new Error('getter says no');
        },
      },
    },
    {
      what: 'a Proxy whose get throws',
      args: new Proxy(
        { section: 'context', issue: 'x' },
        {
          get() {
            throw new Error('get trap');
          },
        },
      ),
    },
    {
      what: 'a Proxy whose ownKeys throws',
      args: new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('ownKeys trap');
          },
        },
      ),
    },
    {
      what: 'a revoked Proxy',
      args: (() => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      })(),
    },
    {
      what: 'a getter deep inside',
      args: {
        section: 'context',
        issue: 'x',
        keywords: [
          {
            toString() {
              return 'k';
            },
          },
          Object.defineProperty({}, 'a', {
            enumerable: true,
            get() {
              throw new Error('deep');
            },
          }),
        ],
      },
    },
    { what: 'a cycle', args: cycle },
    {
      what: 'an array Proxy whose length throws',
      args: {
        section: 'context',
        issue: 'x',
        keywords: new Proxy([], {
          get(t, k) {
            if (k === 'length') throw new Error('length');
            return Reflect.get(t, k);
          },
        }),
      },
    },
  ];
}

describe('tool arguments are read once, inside a guard', () => {
  it('tool arguments - anything that throws while the arguments are read resolves to { error }, for every tool, and nothing is written', async () => {
    const rt = createRuntime();
    const seen: { what: string; tool: SkillToolName; result: unknown }[] = [];
    const outcome = await rt.run(async (s) => {
      for (const tool of ['add_skill', 'update_skill', 'remove_skill', 'tag_skill', 'read_skill'] as const) {
        for (const { what, args } of hostile()) {
          const result = await Promise.resolve()
            .then(() => callSkillTool(s.tools, tool, args))
            .catch((e: unknown) => ({ rejected: String(e) }));
          seen.push({ what, tool, result });
        }
      }
    });
    expect(outcome.status).toBe('committed');
    for (const { what, tool, result } of seen)
      expect(result, `${tool}: ${what}`).toEqual({ error: expect.stringMatching(/^invalid arguments: /) });
    expect(rt.book.size).toBe(0);
    await rt.close();
  });

  it('tool arguments - text with a lone surrogate is refused, naming the field and the character; nothing is written', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => [
      await s.tools.add_skill({ section: 'harness', issue: 'lone \uD800 here', insight: 'x' }),
      await s.tools.add_skill({ section: 'harness', issue: 'ok', keywords: ['fine', 'bad \uDFFF'] }),
      await s.tools.add_skill({ section: 'harness', issue: 'ok', insight_source: { source_system: 'a', trace_id: 't', ['k\uD83D']: 'v' } }),
      await s.tools.add_skill({ section: 'harness', issue: 'a pair \uD83D\uDE00 is fine' }),
    ]);
    expect(outcome.status === 'committed' && outcome.output).toEqual([
      { error: 'invalid arguments: issue: a lone surrogate (\\ud800) at character 5 is not Unicode text: send well-formed text' },
      { error: 'invalid arguments: keywords[1]: a lone surrogate (\\udfff) at character 4 is not Unicode text: send well-formed text' },
      {
        error:
          'invalid arguments: insight_source.k\\ud83d: a lone surrogate (\\ud83d) at character 1 is not Unicode text: send well-formed text',
      },
      { ok: true, skill_id: 'harness-00001' },
    ]);
    expect(rt.book.size).toBe(1);
    await rt.close();
  });

  it('tool arguments - a getter runs once: what is checked is what is written', async () => {
    const rt = createRuntime();
    let reads = 0;
    const args = {
      section: 'harness',
      get issue(): string {
        reads += 1;
        return reads === 1 ? 'checked' : 'x'.repeat(100_000);
      },
    };
    const outcome = await rt.run(async (s) => s.tools.add_skill(args));
    expect(outcome.status === 'committed' && outcome.output).toEqual({ ok: true, skill_id: 'harness-00001' });
    expect(reads).toBe(1);
    expect(rt.book.get('harness-00001')?.issue).toBe('checked');
    await rt.close();
  });

  it('tool arguments - a __proto__ key is an unknown argument, never a prototype, and a name that is no tool is an error', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => [
      await callSkillTool(s.tools, 'add_skill', JSON.parse('{"section":"context","issue":"x","__proto__":{"polluted":true}}')),
      await callSkillTool(s.tools, 'no_such_tool' as SkillToolName, {}),
    ]);
    expect(outcome.status === 'committed' && outcome.output).toEqual([
      { error: expect.stringContaining('__proto__') },
      { error: 'unknown tool: no_such_tool' },
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await rt.close();
  });
});
