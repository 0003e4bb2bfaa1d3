// A fake Azure OpenAI resource and a fake Microsoft Entra ID token endpoint, checking what the real ones check.
// Built from Microsoft's documentation (learn.microsoft.com: azure/ai-foundry/openai/reference,
// api-version-lifecycle, concepts/content-filter; entra/identity-platform/v2-oauth2-client-creds-grant-flow):
//  - dated API: POST /openai/deployments/{deployment}/chat/completions?api-version=… — no api-version → 404
//    "Resource not found"; `stream_options` with a version before 2024-09-01(-preview) → 400 "Unrecognized
//    request argument"; an unknown deployment → 404 DeploymentNotFound;
//  - v1 API: POST /openai/v1/chat/completions, the deployment in the body's `model`;
//  - credentials: `api-key: <key>` or `Authorization: Bearer <token>` issued by the fake Entra endpoint and not
//    expired → else 401, as Azure answers;
//  - answers carry Azure's `prompt_filter_results` / `content_filter_results` (the stream's first chunk has
//    `choices: []` and only prompt_filter_results).
import { startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from './fake-upstream';

export interface FakeEntra {
  upstream: FakeUpstream;
  /** `${url}/{tenant}/oauth2/v2.0/token`. */
  tokenUrl(tenant: string): string;
  /** Token requests answered 200. */
  issued: number;
  isValid(token: string): boolean;
  /** Revokes every token issued so far (Azure then answers 401 to them). */
  revokeAll(): void;
}

/** Issues `expiresInSeconds`-long tokens to one client (id + secret), after checking the grant's form fields. */
export async function startFakeEntra(o: { clientId: string; clientSecret: string; expiresInSeconds: number }): Promise<FakeEntra> {
  const expiry = new Map<string, number>();
  const entra = {} as FakeEntra;
  entra.issued = 0;
  entra.isValid = (token) => (expiry.get(token) ?? 0) > Date.now();
  entra.revokeAll = () => expiry.clear();
  entra.upstream = await startFakeUpstream((req) => {
    const form = new URLSearchParams(req.rawBody);
    if (!/^\/[^/]+\/oauth2\/v2\.0\/token$/.test(req.path) || req.method !== 'POST') return { status: 404, json: { error: 'not_found' } };
    if (form.get('grant_type') !== 'client_credentials') return { status: 400, json: { error: 'unsupported_grant_type', error_description: 'AADSTS70003' } };
    if (form.get('scope') !== 'https://cognitiveservices.azure.com/.default') return { status: 400, json: { error: 'invalid_scope', error_description: 'AADSTS70011' } };
    if (form.get('client_id') !== o.clientId || form.get('client_secret') !== o.clientSecret) {
      return { status: 401, json: { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.', error_codes: [7000215] } };
    }
    const token = `eyJ0eXAi.fake-${++entra.issued}.${Math.random().toString(36).slice(2)}`;
    expiry.set(token, Date.now() + o.expiresInSeconds * 1000);
    return { status: 200, json: { token_type: 'Bearer', expires_in: o.expiresInSeconds, ext_expires_in: o.expiresInSeconds, access_token: token } };
  });
  entra.tokenUrl = (tenant) => `${entra.upstream.url}/${tenant}/oauth2/v2.0/token`;
  return entra;
}

export interface FakeAzureOptions {
  deployments: string[];
  apiKey?: string;
  entra?: FakeEntra;
  /** The answer for a request that passed the checks (default: a short text answer in Azure's shape). */
  answer?: (req: RecordedRequest, deployment: string) => FakeResponse;
}

const azureError = (status: number, code: string, message: string): FakeResponse => ({ status, json: { error: { code, message } } });

export function startFakeAzure(o: FakeAzureOptions): Promise<FakeUpstream> {
  return startFakeUpstream((req) => {
    const url = new URL(req.path, 'http://x');
    let deployment: string | undefined;
    const dated = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(url.pathname);
    if (dated) {
      const version = url.searchParams.get('api-version');
      if (!version) return azureError(404, '404', 'Resource not found');
      // stream_options came with 2024-09-01-preview; older versions refuse the argument.
      if (version.slice(0, 10) < '2024-09-01' && (req.body as { stream_options?: unknown } | undefined)?.stream_options !== undefined) {
        return { status: 400, json: { error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error', param: null, code: null } } };
      }
      deployment = decodeURIComponent(dated[1]!);
    } else if (url.pathname === '/openai/v1/chat/completions') {
      deployment = (req.body as { model?: string } | undefined)?.model;
    } else {
      return azureError(404, '404', 'Resource not found');
    }
    const key = req.headers['api-key'];
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const keyOk = o.apiKey !== undefined && key === o.apiKey;
    const tokenOk = o.entra !== undefined && bearer !== undefined && o.entra.isValid(bearer);
    if (!keyOk && !tokenOk) {
      return bearer
        ? azureError(401, 'PermissionDenied', 'Principal does not have access to API/Operation, or the token is expired.')
        : azureError(401, '401', 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.');
    }
    if (!deployment || !o.deployments.includes(deployment)) {
      return azureError(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.');
    }
    return (o.answer ?? azureText)(req, deployment);
  });
}

const promptFilter = [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' }, self_harm: { filtered: false, severity: 'safe' }, sexual: { filtered: false, severity: 'safe' }, violence: { filtered: false, severity: 'safe' } } }];
const contentFilter = { hate: { filtered: false, severity: 'safe' }, self_harm: { filtered: false, severity: 'safe' }, sexual: { filtered: false, severity: 'safe' }, violence: { filtered: false, severity: 'safe' } };

/** A text answer, streamed or not, in Azure's shape (content filter annotations included). */
export function azureText(req: RecordedRequest, deployment: string, text = 'Hello from Azure', finishReason = 'stop'): FakeResponse {
  const usage = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } };
  if ((req.body as { stream?: boolean }).stream) {
    const base = { id: 'chatcmpl-AZ1', object: 'chat.completion.chunk', created: 1732000000, model: deployment, system_fingerprint: 'fp_azure' };
    const chunks = [
      { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: promptFilter },
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, content_filter_results: {} }] },
      ...text.split(' ').map((word, i) => ({ ...base, choices: [{ index: 0, delta: { content: i === 0 ? word : ` ${word}` }, finish_reason: null, content_filter_results: contentFilter }] })),
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason, content_filter_results: finishReason === 'content_filter' ? { ...contentFilter, violence: { filtered: true, severity: 'medium' } } : {} }] },
      { ...base, choices: [], usage },
    ];
    return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'] };
  }
  return {
    status: 200,
    json: {
      id: 'chatcmpl-AZ1', object: 'chat.completion', created: 1732000000, model: deployment, system_fingerprint: 'fp_azure',
      prompt_filter_results: promptFilter,
      choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content: text, refusal: null }, content_filter_results: contentFilter, logprobs: null }],
      usage,
    },
  };
}
