// Error shapes from AWS's API reference (API_runtime_Converse "Errors"): `x-amzn-errortype` and a JSON `message`.
import { describe, expect, it } from 'vitest';
import { convertError } from './convert-error';

const aws = (type: string) => ({ 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'req-1' });

describe('bedrock convertError', () => {
  it.each([
    [429, 'ThrottlingException', 'Too many requests', 'rate_limited'],
    [400, 'ValidationException', 'Malformed input request', 'bad_request'],
    [400, 'ValidationException', 'Input is too long for requested model.', 'context_length_exceeded'],
    [403, 'AccessDeniedException', "You don't have access to the model with the specified model ID.", 'not_found'],
    [403, 'AccessDeniedException', 'User: arn:aws:iam::123456789012:user/gw is not authorized to perform: bedrock:InvokeModel', 'auth'],
    [400, 'ValidationException', 'The provided model identifier is invalid.', 'not_found'],
    [403, 'UnrecognizedClientException', 'The security token included in the request is invalid.', 'auth'],
    [429, 'ModelNotReadyException', 'Model is not ready', 'overloaded'],
    [503, 'ServiceUnavailableException', 'Unavailable', 'overloaded'],
    [500, 'InternalServerException', 'Internal', 'server_error'],
    [404, 'ResourceNotFoundException', 'Model not found', 'not_found'],
  ])('%i %s → %s', (status, type, message, kind) => {
    expect(convertError(status, JSON.stringify({ message }), aws(type))).toEqual({ kind: kind as never, message, upstreamRequestId: 'req-1' });
  });

  it('reads the type from the body (__type) without the header, and survives a non-JSON body', () => {
    expect(convertError(400, JSON.stringify({ __type: 'com.amazon.bedrock#ThrottlingException', message: 'x' }), {}).kind).toBe('rate_limited');
    expect(convertError(502, '<html>bad gateway</html>', {})).toEqual({ kind: 'server_error', message: 'Bedrock returned HTTP 502' });
  });
});
