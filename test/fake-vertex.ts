// Test support: a fake Vertex AI endpoint (cloud.google.com/vertex-ai/docs/reference/rest, "publishers.models"
// methods, "Use Claude models" for rawPredict, "Call MaaS APIs for open models" for the OpenAI-compatible
// endpoint, and the express-mode API reference). It answers:
//  - the prediction paths of a project (`/v1/projects/{p}/locations/{l}/publishers/{google|anthropic}/models/
//    {m}:{action}`) and the Chat Completions endpoint (`…/locations/{l}/endpoints/openapi/chat/completions`)
//    only with a valid access token from the fake token endpoint (401 UNAUTHENTICATED otherwise, Google's
//    wording);
//  - express mode (`/v1/publishers/google/models/{m}:{action}`, no project) only with one of `apiKeys` in
//    `x-goog-api-key` or `?key=` (400 API_KEY_INVALID otherwise, as Google answers a bad key);
// and checks the bodies: Claude's names `anthropic_version: "vertex-2023-10-16"` and not `model`, and has no
// URL image sources (base64 only on Vertex); Chat Completions' `model` is a Model Garden `publisher/model` id
// and `stream` matches stream_options. What passes these checks goes to the test's handler.
import { startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from './fake-upstream';
import type { FakeGoogleToken } from './fake-google-token';

export interface VertexCall {
  /** Absent in express mode. */
  project?: string;
  location?: string;
  /** `openapi` is the Chat Completions endpoint (partner and open models). */
  publisher: 'google' | 'anthropic' | 'openapi';
  model: string;
  /** generateContent…, rawPredict…, or `chat/completions`. */
  action: string;
  auth: 'oauth' | 'api_key';
}

export interface FakeVertexOptions {
  /** Express-mode API keys this fake accepts. */
  apiKeys?: string[];
}

const PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;
const OPENAPI_PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/endpoints\/openapi\/chat\/completions$/;
const EXPRESS_PATH = /^\/v1\/publishers\/google\/models\/([^/:]+):([A-Za-z]+)$/;
const ACTIONS = { google: ['generateContent', 'streamGenerateContent'], anthropic: ['rawPredict', 'streamRawPredict'] } as const;

const googleError = (code: number, status: string, message: string, reason?: string): FakeResponse => ({
  status: code,
  json: { error: { code, message, status, ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}) } },
});
const notFound: FakeResponse = { status: 404, text: '<!DOCTYPE html><html><title>Error 404 (Not Found)!!1</title></html>', headers: { 'content-type': 'text/html' } };
const unauthenticated = () =>
  googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.');

export function startFakeVertex(
  token: FakeGoogleToken,
  handler: (req: RecordedRequest, call: VertexCall) => FakeResponse | Promise<FakeResponse>,
  options: FakeVertexOptions = {},
): Promise<FakeUpstream> {
  return startFakeUpstream((req) => {
    const url = new URL(req.path, 'http://fake');
    if (req.method !== 'POST') return notFound;
    const body = req.body as Record<string, unknown> | undefined;

    const express = EXPRESS_PATH.exec(url.pathname);
    if (express) {
      const apiKey = (req.headers['x-goog-api-key'] as string | undefined) ?? url.searchParams.get('key') ?? undefined;
      if (apiKey === undefined) return unauthenticated();
      if (!options.apiKeys?.includes(apiKey)) return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
      const call: VertexCall = { publisher: 'google', model: decodeURIComponent(express[1]!), action: express[2]!, auth: 'api_key' };
      return checkGemini(call, url, body) ?? handler(req, call);
    }

    if (token.checkBearer(req.headers.authorization) !== 'valid') return unauthenticated();
    const openapi = OPENAPI_PATH.exec(url.pathname);
    if (openapi) {
      const call: VertexCall = { project: openapi[1]!, location: openapi[2]!, publisher: 'openapi', model: String(body?.model ?? ''), action: 'chat/completions', auth: 'oauth' };
      if (!body || !Array.isArray(body.messages)) return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. messages is required.');
      // MaaS models are named publisher/model (meta/llama-3.3-70b-instruct-maas); a bare name is not found.
      if (!/^[a-z0-9-]+\/[^/]+$/.test(call.model)) return googleError(404, 'NOT_FOUND', `Publisher Model \`${call.model}\` not found.`);
      if (body.stream_options !== undefined && body.stream !== true) return googleError(400, 'INVALID_ARGUMENT', 'stream_options is only allowed when stream is true');
      return handler(req, call);
    }

    const m = PATH.exec(url.pathname);
    if (!m) return notFound;
    const call: VertexCall = { project: m[1]!, location: m[2]!, publisher: m[3] as 'google' | 'anthropic', model: decodeURIComponent(m[4]!), action: m[5]!, auth: 'oauth' };
    if (!(ACTIONS[call.publisher as 'google' | 'anthropic'] as readonly string[]).includes(call.action)) return googleError(400, 'INVALID_ARGUMENT', `Unknown method ${call.action}`);
    if (call.publisher === 'anthropic') {
      if (!body) return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
      // Anthropic's validation, as rawPredict relays it.
      const invalid = (message: string): FakeResponse => ({ status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } });
      if (body.anthropic_version !== 'vertex-2023-10-16') return invalid('anthropic_version: Input should be \'vertex-2023-10-16\'');
      if ('model' in body) return invalid('model: Extra inputs are not permitted');
      if ((call.action === 'streamRawPredict') !== (body.stream === true)) return invalid('stream must match the method (streamRawPredict with stream: true)');
      // Google-managed Claude takes base64 image sources only (platform.claude.com/docs "Vision").
      if (JSON.stringify(body.messages ?? []).includes('"source":{"type":"url"')) return invalid('messages: image source type url is not supported on Vertex AI; use base64');
      return handler(req, call);
    }
    return checkGemini(call, url, body) ?? handler(req, call);
  });
}

function checkGemini(call: VertexCall, url: URL, body: Record<string, unknown> | undefined): FakeResponse | null {
  if (!(ACTIONS.google as readonly string[]).includes(call.action)) return googleError(400, 'INVALID_ARGUMENT', `Unknown method ${call.action}`);
  if (call.action === 'streamGenerateContent' && url.searchParams.get('alt') !== 'sse') return googleError(400, 'INVALID_ARGUMENT', 'this fake speaks SSE only: add ?alt=sse');
  if (!body) return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
  if (!Array.isArray(body.contents)) return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "messages": Cannot find field.');
  return null;
}
