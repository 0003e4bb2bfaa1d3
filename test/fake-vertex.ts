// Test support: a fake Vertex AI endpoint (cloud.google.com/vertex-ai/docs/reference/rest, "publishers.models"
// methods, and "Use Claude models" for rawPredict): it answers only requests with a valid access token from
// the fake token endpoint (401 UNAUTHENTICATED otherwise, Google's wording), on the prediction paths, with a
// Claude body that names `anthropic_version: "vertex-2023-10-16"` and not `model`. What passes these checks
// goes to the test's handler.
import { startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from './fake-upstream';
import type { FakeGoogleToken } from './fake-google-token';

export interface VertexCall {
  project: string;
  location: string;
  publisher: 'google' | 'anthropic';
  model: string;
  action: string;
}

const PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)(\?alt=sse)?$/;
const ACTIONS = { google: ['generateContent', 'streamGenerateContent'], anthropic: ['rawPredict', 'streamRawPredict'] } as const;

const googleError = (code: number, status: string, message: string): FakeResponse => ({ status: code, json: { error: { code, message, status } } });

export function startFakeVertex(token: FakeGoogleToken, handler: (req: RecordedRequest, call: VertexCall) => FakeResponse | Promise<FakeResponse>): Promise<FakeUpstream> {
  return startFakeUpstream((req) => {
    const auth = token.checkBearer(req.headers.authorization);
    if (auth !== 'valid') {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.');
    }
    const m = PATH.exec(req.path);
    if (req.method !== 'POST' || !m) return { status: 404, text: '<!DOCTYPE html><html><title>Error 404 (Not Found)!!1</title></html>', headers: { 'content-type': 'text/html' } };
    const call: VertexCall = { project: m[1]!, location: m[2]!, publisher: m[3] as VertexCall['publisher'], model: decodeURIComponent(m[4]!), action: m[5]! };
    if (!(ACTIONS[call.publisher] as readonly string[]).includes(call.action)) return googleError(400, 'INVALID_ARGUMENT', `Unknown method ${call.action}`);
    if (call.action === 'streamGenerateContent' && !m[6]) return googleError(400, 'INVALID_ARGUMENT', 'this fake speaks SSE only: add ?alt=sse');
    const body = req.body as Record<string, unknown> | undefined;
    if (!body) return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    if (call.publisher === 'anthropic') {
      // Anthropic's validation, as rawPredict relays it.
      const invalid = (message: string): FakeResponse => ({ status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } });
      if (body.anthropic_version !== 'vertex-2023-10-16') return invalid('anthropic_version: Input should be \'vertex-2023-10-16\'');
      if ('model' in body) return invalid('model: Extra inputs are not permitted');
      if ((call.action === 'streamRawPredict') !== (body.stream === true)) return invalid('stream must match the method (streamRawPredict with stream: true)');
    } else if (!Array.isArray(body.contents)) {
      return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "messages": Cannot find field.');
    }
    return handler(req, call);
  });
}
