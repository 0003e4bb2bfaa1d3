import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';

describe('OpenAPI document', () => {
  const doc = openApiDocument() as any;
  it('documents the chat endpoint from the validating schema', () => {
    const op = doc.paths['/chat/completions'].post;
    const body = op.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['model', 'messages']));
    expect(body.properties.temperature.maximum).toBe(2);
    expect(op.responses['402'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });
  it('marks public endpoints and documents path parameters', () => {
    expect(doc.paths['/models'].get.security).toEqual([]);
    expect(doc.paths['/api-keys/{key_id}'].delete.parameters[0]).toMatchObject({ name: 'key_id', in: 'path', required: true });
  });
  it('serialises to JSON', () => {
    expect(() => JSON.stringify(doc)).not.toThrow();
  });
});
