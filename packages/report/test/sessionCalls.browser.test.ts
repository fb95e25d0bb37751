import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { recordRun, writeRunReport } from '../src/index.ts';
import type { Recording, SessionRecord } from '../src/index.ts';
import { describeInBrowser, openBrowser } from './utils/chromium.ts';

/** The page renders on an animation frame: on a busy machine that can take a while. */
const SLOW = { timeout: 10_000 };

const INPUT = { section: 'harness', issue: 'flaky network', insight: 'retry twice' };

/** What an agent loop records for one step that adds a skill: the model call, then the tool run. */
async function agentStep(s: Session, prompt: string): Promise<void> {
  s.record({
    type: 'model',
    model: 'mock/model',
    step: 0,
    input: [{ role: 'user', parts: [{ type: 'text', text: prompt }] }],
    output: [
      { type: 'text', text: `thinking about ${prompt}` },
      { type: 'tool-call', toolCallId: `${s.id}-c1`, toolName: 'add_skill', input: INPUT },
    ],
    finishReason: 'tool-calls',
    usage: { inputTokens: 31, outputTokens: 9 },
    durationMs: 120,
  });
  const output = await s.tools.add_skill(INPUT);
  s.record({ type: 'tool', toolCallId: `${s.id}-c1`, toolName: 'add_skill', input: INPUT, output, durationMs: 1 });
}

/** A planner with two agents that commit and one that crashes after writing. */
async function recordedRun(): Promise<Recording> {
  const rt = createRuntime();
  const recorder = recordRun(rt, { title: 'calls' });
  await rt.run(
    async (s) => {
      await Promise.all([
        s.spawn((c) => agentStep(c, 'distil the alpha trace'), { name: 'alpha' }),
        s.spawn((c) => agentStep(c, 'distil the beta trace'), { name: 'beta' }),
        s.spawn(
          async (c) => {
            await c.tools.add_skill({ section: 'harness', issue: 'lost write', insight: 'never seen' });
            throw new Error('crashed on purpose');
          },
          { name: 'crasher' },
        ),
      ]);
    },
    { name: 'planner' },
  );
  const recording = recorder.stop();
  await rt.close();
  return recording;
}

describeInBrowser('run report - session links, search and model calls', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let url: string;
  let byName: Map<string, SessionRecord>;
  const dir = mkdtempSync(join(tmpdir(), 'cohort-calls-'));

  beforeAll(async () => {
    const recording = await recordedRun();
    byName = new Map(recording.runs[0]!.sessions.map((s) => [s.name ?? s.id, s]));
    const file = join(dir, 'calls.html');
    await writeRunReport(recording, file);
    url = pathToFileURL(file).href;
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(fragment = ''): Promise<void> {
    await page.goto('about:blank');
    await page.goto(`${url}${fragment}`);
    await page.waitForSelector('#app[data-rendered="true"]');
  }

  it('a deep link opens its session, and selecting a session puts its link in the address', async () => {
    const beta = byName.get('beta')!;
    await open(`#session=${encodeURIComponent(beta.id)}`);
    const details = page.locator('[data-testid="session-details"]');
    await expect.poll(() => details.getAttribute('data-session'), SLOW).toBe(beta.id);
    await page.click(`[data-session-id="${byName.get('alpha')!.id}"]`);
    await expect.poll(() => page.evaluate('location.hash'), SLOW).toBe(`#session=${encodeURIComponent(byName.get('alpha')!.id)}`);
    expect(await details.locator('[data-testid="session-link"]').getAttribute('href')).toBe(
      `#session=${encodeURIComponent(byName.get('alpha')!.id)}`,
    );
  });

  it('search filters the sessions by name and by what their model calls said; the status filter by status', async () => {
    await open();
    const rows = () =>
      page.locator('[data-session-id]:not(.context)').evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')));
    expect(await rows()).toHaveLength(4);
    await page.fill('[data-testid="session-search"]', 'beta trace');
    await expect.poll(rows, SLOW).toEqual([byName.get('beta')!.id]);
    // its parent stays, greyed, so the match keeps its place in the tree
    expect(await page.locator('[data-session-id].context').getAttribute('data-session-id')).toBe(byName.get('planner')!.id);
    expect(await page.innerText('[data-testid="shown"]')).toContain('1 of 4 sessions match');
    await page.fill('[data-testid="session-search"]', '');
    await page.selectOption('[data-testid="status-filter"]', 'failed');
    await expect.poll(rows, SLOW).toEqual(expect.arrayContaining([byName.get('crasher')!.id]));
    expect(await page.locator('[data-session-id][data-status="committed"]:not(.context)').count()).toBe(0);
  });

  it("a model call's messages, answer and tool call with its input and result are shown", async () => {
    const alpha = byName.get('alpha')!;
    await open(`#session=${encodeURIComponent(alpha.id)}`);
    const call = page.locator('[data-testid="model-call"]');
    await call.waitFor();
    const text = await call.innerText();
    expect(text).toContain('distil the alpha trace');
    expect(text).toContain('thinking about distil the alpha trace');
    expect(text).toContain('31 in / 9 out');
    const tool = call.locator('[data-testid="tool-call"][data-tool="add_skill"]');
    const toolText = await tool.innerText();
    expect(toolText).toContain('"issue":"flaky network"');
    expect(toolText).toContain(`"skill_id":"${alpha.landed[0]!.ops[0]!.skill_id}"`);
  });

  it('a crash shows the ops it discarded; rows show ids without their common prefix', async () => {
    const crasher = byName.get('crasher')!;
    await open(`#session=${encodeURIComponent(crasher.id)}`);
    const discarded = page.locator('[data-testid="discarded-ops"]');
    await discarded.waitFor();
    expect(await discarded.innerText()).toContain('lost write');
    const prefix = await page.locator('[data-testid="shown"] code').innerText();
    expect(crasher.id.startsWith(prefix)).toBe(true);
    const paths = await page.locator('[data-session-id] .path').allInnerTexts();
    expect(paths.every((p) => !p.includes(prefix))).toBe(true);
  });
});
