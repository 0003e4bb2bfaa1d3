// A fake Bedrock runtime (bedrock-runtime.<region>.amazonaws.com) on 127.0.0.1 that checks what AWS checks and
// answers in AWS's wire formats:
//  - authentication: a Bedrock API key as `Authorization: Bearer`, or a SigV4 signature that is recomputed
//    here with AWS's own signer from the same secret over the signed headers, path, query and body, and
//    compared; an unknown access key, a stale x-amz-date (AWS allows 15 minutes of skew), a missing session
//    token, a credential scope of another region (with `region`) or of another day than x-amz-date, an unsigned
//    `host` or a signature that does not match get AWS's 403 (UnrecognizedClientException /
//    InvalidSignatureException / IncompleteSignatureException) with `x-amzn-errortype`;
//  - POST /model/{modelId}/converse → the test's JSON; /converse-stream → the test's events, each encoded as
//    an application/vnd.amazon.eventstream message with AWS's codec and written in uneven chunks so frames
//    straddle network reads, as they do from AWS;
//  - cache points (API_runtime_CachePointBlock): `type: "default"`, an optional `ttl` of "5m" or "1h", and TTLs
//    that never grow along toolConfig.tools → system → messages (AWS answers ValidationException otherwise).
// Shapes follow docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html and
// API_runtime_ConverseStream.html.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { createSigner } from '@/server/providers/bedrock/sign-request';

export interface BedrockRequest {
  /** The model id, decoded from the path. */
  modelId: string;
  stream: boolean;
  headers: IncomingHttpHeaders;
  body: any;
  /** How the request authenticated. */
  auth: { kind: 'sigv4'; accessKeyId: string; region: string } | { kind: 'bearer'; key: string };
}

/** One ConverseStream event: `event` is an event type (messageStart…) or, with `exception`, an exception type. */
export interface StreamEvent {
  event: string;
  payload: unknown;
  exception?: boolean;
}

export type BedrockAnswer =
  | { status?: 200; json: unknown }
  | { status?: 200; events: StreamEvent[] }
  /** AWS's error shape: `x-amzn-errortype` and a JSON body with `message`. */
  | { status: number; errorType: string; message: string };

export interface FakeBedrockOptions {
  /** accessKeyId → secretAccessKey (and the session token it requires, if any). */
  credentials: Record<string, { secret: string; sessionToken?: string }>;
  /** Bedrock API keys accepted as Bearer. */
  apiKeys?: string[];
  /** The region this endpoint serves: a signature scoped to another is refused, as AWS does (default: any). */
  region?: string;
  respond: (req: BedrockRequest) => BedrockAnswer | Promise<BedrockAnswer>;
}

export interface FakeBedrock {
  url: string;
  requests: BedrockRequest[];
  /** Requests refused before they reached the model (bad signature, unknown key…), with AWS's error type. */
  refused: { errorType: string; message: string }[];
  options: FakeBedrockOptions;
  close(): Promise<void>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const MAX_SKEW_MS = 15 * 60_000;

/** One event-stream message, as Bedrock frames it (the payload's `p` padding left out). */
export function encodeEvent(e: StreamEvent): Uint8Array {
  const text = (value: string) => ({ type: 'string' as const, value });
  const headers = {
    [e.exception ? ':exception-type' : ':event-type']: text(e.event),
    ':content-type': text('application/json'),
    ':message-type': text(e.exception ? 'exception' : 'event'),
  };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify(e.payload)) });
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `20250101T000000Z` → Date. */
function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

type Refusal = { status: number; errorType: string; message: string };

async function verifySigV4(options: FakeBedrockOptions, method: string, rawPath: string, headers: IncomingHttpHeaders, body: string): Promise<Refusal | { accessKeyId: string; region: string }> {
  const authorization = single(headers.authorization) ?? '';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!m) return { status: 403, errorType: 'IncompleteSignatureException', message: 'Authorization header requires Credential, SignedHeaders and Signature.' };
  const [, accessKeyId, scopeDate, region, service, signedHeaders] = m as unknown as string[];
  const known = options.credentials[accessKeyId!];
  if (!known) return { status: 403, errorType: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (service !== 'bedrock') return { status: 403, errorType: 'InvalidSignatureException', message: `Credential should be scoped to correct service: 'bedrock'.` };
  if (options.region !== undefined && region !== options.region) return { status: 403, errorType: 'InvalidSignatureException', message: `Credential should be scoped to a valid region, not '${region}'.` };
  if (!signedHeaders!.split(';').includes('host')) return { status: 403, errorType: 'IncompleteSignatureException', message: "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization." };
  const amzDate = single(headers['x-amz-date']) ?? '';
  const date = parseAmzDate(amzDate);
  if (!date) return { status: 403, errorType: 'IncompleteSignatureException', message: 'Authorization header requires existence of either a X-Amz-Date or a Date header.' };
  if (amzDate.slice(0, 8) !== scopeDate) {
    return { status: 403, errorType: 'InvalidSignatureException', message: `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${scopeDate}' != '${amzDate.slice(0, 8)}', from '${amzDate}'.` };
  }
  if (Math.abs(Date.now() - date.getTime()) > MAX_SKEW_MS) {
    return { status: 403, errorType: 'InvalidSignatureException', message: `Signature expired: ${single(headers['x-amz-date'])} is now earlier than the allowed window.` };
  }
  if (known.sessionToken !== undefined && single(headers['x-amz-security-token']) !== known.sessionToken) {
    return { status: 403, errorType: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  // The signer takes a payload hash sent in x-amz-content-sha256 on trust: AWS checks it against the body.
  const claimedHash = single(headers['x-amz-content-sha256']);
  if (claimedHash !== undefined && claimedHash !== createHash('sha256').update(body).digest('hex')) {
    return { status: 400, errorType: 'XAmzContentSHA256Mismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." };
  }
  // Recompute over exactly the headers the client signed, with the secret we hold.
  const signed: Record<string, string> = {};
  for (const name of signedHeaders!.split(';')) signed[name] = single(headers[name]) ?? '';
  const url = new URL(rawPath, 'http://placeholder');
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => (query[name] = value));
  const [hostname, port] = signed.host!.split(':');
  const signer = createSigner(region!, { accessKeyId: accessKeyId!, secretAccessKey: known.secret, ...(known.sessionToken ? { sessionToken: known.sessionToken } : {}) });
  const expected = await signer.sign({ method, protocol: 'http:', hostname: hostname!, ...(port ? { port: Number(port) } : {}), path: url.pathname, query, headers: signed, body }, { signingDate: date });
  if (expected.headers.authorization !== authorization) {
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    };
  }
  return { accessKeyId: accessKeyId!, region: region! };
}

const TTL_MINUTES: Record<string, number> = { '5m': 5, '1h': 60 };

/** The cache points of a Converse body, in Bedrock's processing order, checked; a ValidationException message or null. */
export function cachePointProblem(body: any): string | null {
  const blocks: unknown[] = [...(body?.toolConfig?.tools ?? []), ...(body?.system ?? []), ...(body?.messages ?? []).flatMap((m: any) => m.content ?? [])];
  let previous = Infinity;
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null || !('cachePoint' in block)) continue;
    const point = (block as { cachePoint: Record<string, unknown> }).cachePoint;
    const extra = Object.keys(point).filter((k) => k !== 'type' && k !== 'ttl');
    if (point.type !== 'default' || extra.length > 0) return `1 validation error detected: Value at 'cachePoint' failed to satisfy constraint: unknown member or type ${JSON.stringify(point)}`;
    const ttl = point.ttl === undefined ? '5m' : String(point.ttl);
    if (!(ttl in TTL_MINUTES)) return `1 validation error detected: Value '${ttl}' at 'cachePoint.ttl' failed to satisfy constraint: Member must satisfy enum value set: [5m, 1h]`;
    if (TTL_MINUTES[ttl]! > previous) return 'A cache point with a longer TTL cannot follow one with a shorter TTL (toolConfig, then system, then messages).';
    previous = TTL_MINUTES[ttl]!;
  }
  return null;
}

export async function startFakeBedrock(options: FakeBedrockOptions): Promise<FakeBedrock> {
  const requests: BedrockRequest[] = [];
  const refused: FakeBedrock['refused'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const refuse = (r: Refusal) => {
          refused.push({ errorType: r.errorType, message: r.message });
          res.writeHead(r.status, { 'content-type': 'application/json', 'x-amzn-errortype': `${r.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'fake-refused' });
          res.end(JSON.stringify({ message: r.message }));
        };
        const route = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec((req.url ?? '').split('?')[0]!);
        if (req.method !== 'POST' || !route) return refuse({ status: 404, errorType: 'UnknownOperationException', message: 'Unknown operation' });
        const authorization = single(req.headers.authorization) ?? '';
        let auth: BedrockRequest['auth'];
        if (authorization.startsWith('Bearer ')) {
          const key = authorization.slice('Bearer '.length);
          if (!options.apiKeys?.includes(key)) return refuse({ status: 403, errorType: 'AccessDeniedException', message: 'Invalid API Key format: Must start with pre-defined prefix' });
          auth = { kind: 'bearer', key };
        } else {
          const verdict = await verifySigV4(options, req.method, req.url ?? '/', req.headers, raw);
          if ('errorType' in verdict) return refuse(verdict);
          auth = { kind: 'sigv4', ...verdict };
        }
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          return refuse({ status: 400, errorType: 'ValidationException', message: 'Malformed input request, please reformat your input and try again.' });
        }
        const cacheProblem = cachePointProblem(body);
        if (cacheProblem) return refuse({ status: 400, errorType: 'ValidationException', message: cacheProblem });
        const recorded: BedrockRequest = { modelId: decodeURIComponent(route[1]!), stream: route[2] === 'converse-stream', headers: req.headers, body, auth };
        requests.push(recorded);
        const answer = await options.respond(recorded);
        const requestId = `fake-${requests.length}`;
        if ('errorType' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json', 'x-amzn-errortype': `${answer.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': requestId });
          return res.end(JSON.stringify({ message: answer.message }));
        }
        if ('json' in answer) {
          res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': requestId });
          return res.end(JSON.stringify(answer.json));
        }
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': requestId });
        const bytes = Buffer.concat(answer.events.map(encodeEvent));
        // Uneven chunk sizes: frames are split across writes and several share one.
        for (let offset = 0, size = 7; offset < bytes.length; offset += size, size = (size * 5) % 97 + 3) res.write(bytes.subarray(offset, offset + size));
        res.end();
      })().catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalServerException' });
        res.end(JSON.stringify({ message: String(err) }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    refused,
    options,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
