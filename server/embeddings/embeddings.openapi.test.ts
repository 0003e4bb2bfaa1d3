import { expect, it } from 'vitest';
import { openApiDocument } from '@/server/http/openapi/document';

it('the API document has POST /embeddings from the validating schema', () => {
  const op = (openApiDocument() as any).paths['/embeddings'].post;
  const body = op.requestBody.content['application/json'].schema;
  expect(body.required).toEqual(expect.arrayContaining(['model', 'input']));
  expect(body.properties.encoding_format.enum).toEqual(['float', 'base64']);
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '402', '403']));
});
