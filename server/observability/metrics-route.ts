// GET /metrics on the node:http server, before Next (server/main.ts): the runtime's registry in
// Prometheus's text format (with WORKERS=N, the whole host's: cluster-metrics.ts). With METRICS_TOKEN set it wants `Authorization: Bearer <token>`
// (the scheme in any case, RFC 7235 §2.1, read as every other Bearer credential is: authenticate-bearer.ts), compared in
// constant time (digests of equal length, whatever was sent).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerFromHeader } from '@/server/auth/authenticate-bearer';
import { AppError } from '@/server/errors';
import { newRequestId } from '@/server/http/request-id';
import { sendNodeError } from '@/server/http/node-response';
import type { Runtime } from '@/server/runtime/runtime';
import { annotateRequest } from './request-log';

export const METRICS_PATH = '/metrics';

/**
 * `collect`: the text to serve; default this process's registry. With several workers on a host
 * (server/main.ts), every worker's series summed (cluster-metrics.ts).
 */
export async function handleMetricsRequest(rt: Runtime, req: IncomingMessage, res: ServerResponse, token: string | undefined, collect?: () => Promise<string>): Promise<void> {
  const requestId = newRequestId();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendNodeError(res, new AppError('method_not_allowed', `Use GET for ${METRICS_PATH}`, {}, { allow: 'GET, HEAD' }), requestId);
  }
  if (!rt.metrics.enabled) return sendNodeError(res, new AppError('not_found', 'Metrics are off on this server (METRICS_ENABLED=0)'), requestId);
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    return sendNodeError(res, new AppError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', {}, { 'www-authenticate': 'Bearer' }), requestId);
  }
  try {
    const text = await (collect ? collect() : rt.metrics.registry.metrics());
    annotateRequest(res, { request_id: requestId });
    res.writeHead(200, { 'content-type': rt.metrics.registry.contentType, 'cache-control': 'no-store', 'x-request-id': requestId });
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (err) {
    sendNodeError(res, err, requestId);
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = bearerFromHeader(header) ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}
