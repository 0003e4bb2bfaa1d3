// Vertex AI's errors: google.rpc.Status bodies as the REST reference documents them ("API errors" table:
// 400 INVALID_ARGUMENT, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 NOT_FOUND, 429 RESOURCE_EXHAUSTED,
// 500 INTERNAL, 503 UNAVAILABLE), and Claude's own errors through rawPredict in Anthropic's shape.
import { describe, expect, it } from 'vitest';
import { convertVertexError } from './convert-error';

const rpc = (code: number, status: string, message = `${status} message`) => JSON.stringify({ error: { code, message, status } });

describe('convertVertexError', () => {
  it.each([
    [429, 'RESOURCE_EXHAUSTED', 'rate_limited'],
    [401, 'UNAUTHENTICATED', 'auth'],
    [403, 'PERMISSION_DENIED', 'auth'],
    [404, 'NOT_FOUND', 'not_found'],
    [400, 'INVALID_ARGUMENT', 'bad_request'],
    [503, 'UNAVAILABLE', 'overloaded'],
    [500, 'INTERNAL', 'server_error'],
  ])('HTTP %i %s → %s', (status, rpcStatus, kind) => {
    const failure = convertVertexError(status, rpc(status, rpcStatus, 'Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute'), {});
    expect(failure.kind).toBe(kind);
    expect(failure.message).toContain('Quota exceeded');
  });
  it('reads Anthropic-shaped errors from Claude by their own types', () => {
    const overloaded = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(convertVertexError(529, overloaded, {})).toEqual({ kind: 'overloaded', message: 'Overloaded' });
    const tooLong = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } });
    expect(convertVertexError(400, tooLong, {}).kind).toBe('context_length_exceeded');
  });
  it('reads a google.rpc.Status wrapped in a one-element array, and a model the project has not enabled is not_found', () => {
    const wrapped = JSON.stringify([{ error: { code: 429, message: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }] } }]);
    expect(convertVertexError(429, wrapped, {})).toEqual({ kind: 'rate_limited', message: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model', retryAfter: 7 });
    const notEnabled = rpc(400, 'FAILED_PRECONDITION', 'Project `acme` is not allowed to use Publisher Model `projects/acme/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929`');
    expect(convertVertexError(400, notEnabled, {}).kind).toBe('not_found');
  });
  it("never passes the operator's project id or number on to the client", () => {
    const cases = [
      ['Project `acme-prod-42` is not allowed to use Publisher Model `projects/acme-prod-42/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929`', 'Project `…` is not allowed to use Publisher Model `projects/…/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929`'],
      ['Permission denied on resource project acme-prod-42.', 'Permission denied on resource project ….'],
      ["Vertex AI API has not been used in project 123456789012 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/aiplatform.googleapis.com/overview?project=123456789012", 'Vertex AI API has not been used in project … before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/aiplatform.googleapis.com/overview?project=…'],
      ["Quota exceeded for quota metric 'Generate content requests' of service 'aiplatform.googleapis.com' for consumer 'projects/123456789012'.", "Quota exceeded for quota metric 'Generate content requests' of service 'aiplatform.googleapis.com' for consumer 'projects/…'."],
    ];
    for (const [message, shown] of cases) {
      const failure = convertVertexError(403, rpc(403, 'PERMISSION_DENIED', message), {});
      expect(failure.message).toBe(shown);
      expect(failure.message).not.toMatch(/acme-prod-42|123456789012/);
    }
    const claude = JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'model not found in projects/acme-prod-42/locations/us-east5' } });
    expect(convertVertexError(404, claude, {}).message).toBe('model not found in projects/…/locations/us-east5');
  });
  it('a body that is not JSON is classified by status and names Vertex AI', () => {
    expect(convertVertexError(502, '<html>Bad Gateway</html>', {})).toMatchObject({ kind: 'server_error' });
    expect(convertVertexError(404, '', {})).toEqual({ kind: 'not_found', message: 'Vertex AI answered HTTP 404' });
  });
});
