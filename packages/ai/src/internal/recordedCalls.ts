import type { LanguageModelMiddleware } from 'ai';
import type { CallRecorder } from '../callRecorder.ts';

type WrapGenerate = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0];
type WrapStream = Parameters<NonNullable<LanguageModelMiddleware['wrapStream']>>[0];
type GenerateResult = Awaited<ReturnType<WrapGenerate['doGenerate']>>;
type StreamResult = Awaited<ReturnType<WrapStream['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

/**
 * A model call's reply as it is recorded: what the agent loop reads of it, as plain JSON
 * (the response's `Date` as an ISO string; the raw HTTP request, body and headers left out).
 */
type RecordedReply = Omit<GenerateResult, 'request' | 'response'> & { readonly response?: RecordedMetadata };

/** A response's metadata as recorded: its time as an ISO string. */
interface RecordedMetadata {
  readonly id?: string;
  readonly modelId?: string;
  readonly timestamp?: string;
}

/** `doGenerate`, through the recorder: the recorded reply when there is one, else the call's, recorded. */
export async function recordedGenerate(record: CallRecorder, doGenerate: WrapGenerate['doGenerate']): Promise<GenerateResult> {
  const reply = await record('model call', async (): Promise<RecordedReply> => {
    const { request: _request, response, ...rest } = await doGenerate();
    return { ...rest, ...(response ? { response: metadataOf(response) } : {}) };
  });
  const { response, ...rest } = reply;
  return { ...rest, ...(response ? { response: revived(response) } : {}) };
}

/**
 * `doStream`, through the recorder: the call's stream is read to its end and recorded, then
 * given to the loop; a run that has it recorded gets the recorded parts without a call. A
 * stream that reports an error is not recorded (the call failed: it is made again).
 */
export async function recordedStream(record: CallRecorder, doStream: WrapStream['doStream']): Promise<StreamResult> {
  const parts = await record('model stream', async (): Promise<unknown[]> => {
    const { stream } = await doStream();
    const read: unknown[] = [];
    for await (const part of stream as unknown as AsyncIterable<StreamPart>) {
      if (part.type === 'error') throw part.error;
      if (part.type === 'raw') continue;
      read.push(part.type === 'response-metadata' ? { ...metadataOf(part), type: part.type } : part);
    }
    return read;
  });
  const stream = new ReadableStream<StreamPart>({
    start(controller) {
      for (const raw of parts) {
        const part = raw as StreamPart;
        controller.enqueue(part.type === 'response-metadata' ? { ...revived(raw as RecordedMetadata), type: part.type } : part);
      }
      controller.close();
    },
  });
  return { stream };
}

function metadataOf(m: { id?: string | undefined; modelId?: string | undefined; timestamp?: Date | undefined }): RecordedMetadata {
  return {
    ...(m.id !== undefined ? { id: m.id } : {}),
    ...(m.modelId !== undefined ? { modelId: m.modelId } : {}),
    ...(m.timestamp !== undefined ? { timestamp: m.timestamp.toISOString() } : {}),
  };
}

/** Recorded metadata as a model gives it: its time a `Date` again. */
function revived(m: RecordedMetadata): { id?: string; modelId?: string; timestamp?: Date } {
  return {
    ...(m.id !== undefined ? { id: m.id } : {}),
    ...(m.modelId !== undefined ? { modelId: m.modelId } : {}),
    ...(m.timestamp !== undefined ? { timestamp: new Date(m.timestamp) } : {}),
  };
}
