import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { derivedOperationId, openApiDocument } from './document';

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
  it('passes Redocly\'s recommended lint rules with no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  }, 60_000);
  it('is accepted by swagger-parser (schema validation and every $ref resolved)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  }, 60_000);
  it('keeps shared schemas in components/schemas, referred to from where they are used', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"#\/(\$defs|definitions)\//);
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'metadata']);
    expect(doc.paths['/api-keys'].get.responses['200'].content['application/json'].schema.properties.data.items.$ref).toBe('#/components/schemas/ApiKey');
  });
  it('declares the chat stream as text/event-stream beside the JSON completion', () => {
    const content = doc.paths['/chat/completions'].post.responses['200'].content;
    expect(Object.keys(content)).toEqual(['application/json', 'text/event-stream']);
    expect(content['text/event-stream'].schema.description).toMatch(/\[DONE\]/);
  });
  it('gives every operation a unique operationId', () => {
    const ids = Object.values(doc.paths).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId));
    expect(ids.every((id) => typeof id === 'string' && /^[a-zA-Z][a-zA-Z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/chat/completions'].post.operationId).toBe('createChatCompletion');
    expect(derivedOperationId({ method: 'delete', path: '/api-keys/{key_id}' })).toBe('deleteApiKeysByKeyId');
    expect(derivedOperationId({ method: 'get', path: '/users/{id}/payments/{paymentId}/status' })).toBe('getUsersByIdPaymentsByPaymentIdStatus');
  });
});
