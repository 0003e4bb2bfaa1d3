// Test support: an OTLP/HTTP receiver keeping every span posted to /v1/traces (JSON, as the exporter sends it),
// for the tracing tests (server/observability/tracing*.integration.test.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  events?: { name: string; timeUnixNano: string }[];
}

/** OTLP's span kinds, as numbers in the JSON encoding. */
export const SERVER_KIND = 2;
export const CLIENT_KIND = 3;

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

export async function startOtlpReceiver() {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      contentTypes.push(String(req.headers['content-type']));
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { resource: unknown; scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes, close: () => new Promise((r) => server.close(r)) };
}

/** A span attribute's value, whatever its OTLP type. */
export const spanAttribute = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v ? (v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue) : undefined;
};
