import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session, SpawnOptions } from '@cohort/runtime';
import { CALL_RECORDER, callRecorderOf, runAgent, streamAgent } from '@cohort/ai';
import type { CallRecorder } from '@cohort/ai';
import type { MockLanguageModelV3 } from 'ai/test';
import { scriptedModel } from './utils/scriptedModel.ts';
import type { ModelCall, Reply } from './utils/scriptedModel.ts';

/**
 * Records in memory, by call order, as a durable session keeps them in its database (JSON in,
 * JSON out); `record()` is the recorder of one run, counting its calls from the first.
 */
function memoryRecorder(): { record: () => CallRecorder; names: string[] } {
  const values: string[] = [];
  const names: string[] = [];
  const record = (): CallRecorder => {
    let next = 0;
    return async (name, run) => {
      const at = next++;
      if (at >= values.length) {
        const value = await run();
        names.push(name);
        values.push(JSON.stringify(value));
      }
      return JSON.parse(values[at] ?? 'null');
    };
  };
  return { record, names };
}

/** `session`, offering `record` as its call recorder. */
function recording(session: Session, record: CallRecorder): Session {
  return Object.assign(Object.create(session) as Session, { [CALL_RECORDER]: record });
}

/** `scriptedModel(script)`, counting the calls made to it. */
function countedModel(script: (call: ModelCall) => Reply): { model: MockLanguageModelV3; calls: () => number } {
  let calls = 0;
  const model = scriptedModel((call) => {
    calls++;
    return script(call);
  });
  return { model, calls: () => calls };
}

/** One run of `body` in a fresh runtime, its session offering a recorder of `recorder`'s records: the outcome, and the issues of the book after it. */
async function runRecorded<T>(
  recorder: { record: () => CallRecorder },
  body: (s: Session) => Promise<T>,
  options: SpawnOptions<undefined> = {},
) {
  const record = recorder.record();
  const rt = createRuntime();
  const outcome = await rt.run((s) => body(recording(s, record)), options);
  const skills = [...rt.book.skills()].map((k) => k.issue);
  await rt.close();
  return { outcome, skills };
}

describe('call recorder', () => {
  it('an ordinary session has none: every call is made', async () => {
    const rt = createRuntime();
    await rt.run((s) => expect(callRecorderOf(s)).toBeUndefined());
    await rt.close();
  });

  it('runAgent in a session with a recorder: a second run with the same records makes no model call and ends the same', async () => {
    const recorder = memoryRecorder();
    const { model, calls } = countedModel((call) =>
      call.step === 0
        ? {
            calls: [{ tool: 'add_skill', input: { section: 'harness', issue: 'recorded', insight: 'x' } }],
            tokens: { input: 30, output: 3 },
          }
        : { text: 'done', tokens: { input: 10, output: 2 } },
    );
    const once = () =>
      runRecorded(recorder, async (s) => (await runAgent(s, { model, prompt: 'task' })).text, { budget: { tokens: 1_000 } });
    const first = await once();
    expect(calls()).toBe(2);
    expect(recorder.names).toEqual(['model call', 'model call']);
    const second = await once();
    expect(calls(), 'no call made again').toBe(2);
    expect(second.outcome).toMatchObject({ status: 'committed', output: 'done' });
    expect(second.skills).toEqual(first.skills);
    expect(second.skills).toEqual(['recorded']);
  });

  it('streamAgent in a session with a recorder: the stream is recorded, and replayed without a call', async () => {
    const recorder = memoryRecorder();
    const { model, calls } = countedModel((call) =>
      call.step === 0
        ? { calls: [{ tool: 'add_skill', input: { section: 'harness', issue: 'streamed', insight: 'x' } }] }
        : { text: 'streamed done' },
    );
    const once = () =>
      runRecorded(recorder, async (s) => {
        const { stream, result } = streamAgent(s, { model, prompt: 'task' });
        let text = '';
        for await (const delta of stream.textStream) text += delta;
        return { text, final: (await result).text };
      });
    const first = await once();
    expect(recorder.names).toEqual(['model stream', 'model stream']);
    const second = await once();
    expect(calls(), 'no call made again').toBe(2);
    expect([second.outcome.status === 'committed' && second.outcome.output, second.skills]).toEqual([
      first.outcome.status === 'committed' && first.outcome.output,
      first.skills,
    ]);
    expect(second.outcome).toMatchObject({ status: 'committed', output: { text: 'streamed done', final: 'streamed done' } });
    expect(second.skills).toEqual(['streamed']);
  });
});
