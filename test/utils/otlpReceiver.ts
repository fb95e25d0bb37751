import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** The part of an OTLP/HTTP JSON export request the tests read. */
const AnyValue = z.object({ stringValue: z.string().optional(), intValue: z.union([z.string(), z.number()]).optional() });
const ExportRequest = z.object({
  resourceSpans: z.array(
    z.object({
      scopeSpans: z.array(
        z.object({
          scope: z.object({ name: z.string() }),
          spans: z.array(
            z.object({
              traceId: z.string(),
              spanId: z.string(),
              parentSpanId: z.string().optional(),
              name: z.string(),
              attributes: z.array(z.object({ key: z.string(), value: AnyValue })),
              status: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
              links: z.array(z.object({ traceId: z.string(), spanId: z.string() })).optional(),
              events: z.array(z.object({ name: z.string() })).optional(),
            }),
          ),
        }),
      ),
    }),
  ),
});

/** A span as an OTLP/HTTP JSON export carries it. */
export type ExportedSpan = z.infer<typeof ExportRequest>['resourceSpans'][number]['scopeSpans'][number]['spans'][number];

/** One export request as it arrived: the path it was sent to, its content type, its spans. */
export interface ExportReceived {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly spans: readonly ExportedSpan[];
}

/** A collector on 127.0.0.1 that decodes what OTLP/HTTP exporters send it (JSON encoding). */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: exporters send to `<url>/<anything>/v1/traces`. */
  readonly url: string;
  readonly received: ExportReceived[];
  close(): Promise<void>;
}

/** Starts a receiver on an ephemeral port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ExportReceived[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = ExportRequest.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], spans });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A span's attribute as a string or a number. */
export function attributeOf(span: ExportedSpan | undefined, key: string): string | number | undefined {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
}
