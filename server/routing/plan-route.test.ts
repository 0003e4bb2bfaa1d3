import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from './build-routing-table';
import { routingFileSchema } from './config-schema';
import { planRoute } from './plan-route';

const table = buildRoutingTable({
  env: parseEnv({}),
  readVar: () => undefined,
  file: routingFileSchema.parse({
    providers: [{ id: 'local', type: 'openai-compatible', base_url: 'http://127.0.0.1:8000/v1' }],
    models: [
      { id: 'test/chat', name: 'chat', context_length: 1000, max_output_tokens: 100, endpoints: [{ provider: 'local', upstream_model: 'llama', pricing: { input: 1, output: 1 } }] },
      { id: 'test/embed', name: 'embed', kind: 'embedding', context_length: 1000, max_output_tokens: 1, endpoints: [{ provider: 'local', upstream_model: 'bge', pricing: { input: 1, output: 0 } }] },
    ],
  }),
});
const options = { keyUsable: () => true, nextAvailableAt: () => null };

describe('planRoute: model kinds', () => {
  it('chat routes (the default) take chat models and refuse embedding models, also as fallbacks', () => {
    expect(planRoute(table, { model: 'test/chat' }, options).candidates.map((c) => c.model.id)).toEqual(['test/chat']);
    expect(() => planRoute(table, { model: 'test/embed' }, options)).toThrow(expect.objectContaining({ code: 'bad_request', message: 'model: test/embed is an embedding model; send it to POST /api/v1/embeddings.' }));
    expect(() => planRoute(table, { model: 'test/chat', models: ['test/embed'] }, options)).toThrow(/models\[0\]: test\/embed is an embedding model/);
  });

  it('the embeddings route takes embedding models and refuses chat models', () => {
    expect(planRoute(table, { model: 'test/embed' }, { ...options, kind: 'embedding' }).candidates.map((c) => c.endpoint.upstreamModel)).toEqual(['bge']);
    expect(() => planRoute(table, { model: 'test/chat' }, { ...options, kind: 'embedding' })).toThrow(expect.objectContaining({ code: 'bad_request', metadata: { model: 'test/chat', kind: 'chat', expected_kind: 'embedding' } }));
  });
});
