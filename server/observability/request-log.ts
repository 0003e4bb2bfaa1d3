// One log line per request on the node:http server (server/main.ts and the test servers): request_id,
// method, path (never the query string: it may carry a token), status and duration, plus what the handler
// learnt on the way (model, provider, generation_id, account_id), which it puts on the response with
// annotateRequest (the chat transport does: gateway/node-handler.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger';

export interface RequestLogFields {
  request_id?: string;
  model?: string;
  provider?: string;
  generation_id?: string;
  account_id?: string;
}

// Symbol.for: both copies of this module in the process (custom server, Next bundle) use the same slot.
const FIELDS = Symbol.for('switchboard.requestLogFields');
type Annotated = ServerResponse & { [FIELDS]?: RequestLogFields };

export function annotateRequest(res: ServerResponse, fields: RequestLogFields): void {
  const r = res as Annotated;
  if (r[FIELDS]) Object.assign(r[FIELDS], fields);
  else r[FIELDS] = { ...fields };
}

/** Logs the request once its response is done, or when the client went away first (`aborted`). */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  res.once('close', () => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const fields = (res as Annotated)[FIELDS];
    const requestId = fields?.request_id ?? res.getHeader('x-request-id');
    logger.info(
      {
        ...fields,
        request_id: typeof requestId === 'string' ? requestId : undefined,
        method: req.method,
        path: q === -1 ? url : url.slice(0, q),
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  });
}
