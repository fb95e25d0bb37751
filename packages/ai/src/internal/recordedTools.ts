import type { Tool, ToolSet } from 'ai';
import { toErrorInfo } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';

type Execute = NonNullable<Tool['execute']>;

/**
 * `tools`, each recording its runs in the session (`s.record`, a `session.call` event): the
 * input the model sent, what the tool returned or threw, and how long it took. A tool without
 * `execute` (the caller runs it) is left as it is.
 */
export function recordedTools(session: Session, tools: ToolSet): ToolSet {
  const recorded: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as Execute | undefined;
    recorded[name] = execute ? ({ ...tool, execute: recordedExecute(session, name, execute) } as Tool) : tool;
  }
  return recorded;
}

function recordedExecute(session: Session, toolName: string, execute: Execute): Execute {
  return async (input, options) => {
    const startedAt = performance.now();
    const base = { type: 'tool' as const, toolCallId: options.toolCallId, toolName, input };
    const took = () => Math.max(0, performance.now() - startedAt);
    try {
      const output: unknown = await execute(input, options);
      // a streaming tool's output is an async iterable: its parts reach the model, not the recording
      const kept = output && typeof output === 'object' && Symbol.asyncIterator in output ? '[streamed output]' : output;
      session.record({ ...base, output: kept, durationMs: took() });
      return output;
    } catch (thrown) {
      session.record({ ...base, error: toErrorInfo(thrown), durationMs: took() });
      throw thrown;
    }
  };
}
