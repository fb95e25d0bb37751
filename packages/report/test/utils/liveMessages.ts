import type { LiveMessage } from '../../src/index.ts';

/** The messages of a live view's `/events` stream (Server-Sent Events), parsed as they arrive; ends with the stream. */
export async function* liveMessages(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<LiveMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, cut)
        .split('\n')
        .find((l) => l.startsWith('data: '));
      buffer = buffer.slice(cut + 2);
      if (data) yield JSON.parse(data.slice(6)) as LiveMessage;
    }
  }
}
