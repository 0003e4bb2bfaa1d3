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
  it('documents the admin API (operators only: 403) and the public model endpoints', () => {
    for (const [path, field] of [['/admin/models', 'endpoints'], ['/admin/providers', 'keys']]) {
      expect(doc.paths[path].post.responses).toHaveProperty('403');
      expect(doc.paths[path].post.responses).toHaveProperty('409');
      expect(doc.paths[`${path}/{id}`].put.requestBody.content['application/json'].schema.properties).toHaveProperty(field);
      expect(Object.keys(doc.paths[`${path}/{id}`])).toEqual(['get', 'put', 'delete']);
    }
    expect(doc.paths['/admin/models/{id}'].get.parameters[0].description).toMatch(/acme%2Ffast/);
    expect(doc.paths['/models/{author}/{slug}/endpoints'].get.security).toEqual([]);
  });
  it('serialises to JSON', () => {
    expect(() => JSON.stringify(doc)).not.toThrow();
  });
});
