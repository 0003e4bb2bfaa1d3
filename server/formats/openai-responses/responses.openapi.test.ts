import { expect, it } from 'vitest';
import { openApiDocument } from '@/server/http/openapi/document';

it('the document declares POST /responses, GET/DELETE /responses/{id} and GET /responses/{id}/input_items with their bodies', () => {
  const doc = openApiDocument() as any;
  const post = doc.paths['/responses'].post;
  const body = JSON.stringify(post.requestBody);
  for (const field of ['input', 'instructions', 'previous_response_id', 'max_output_tokens', 'include']) expect(body).toContain(`"${field}"`);
  expect(doc.paths['/responses/{id}'].get).toBeDefined();
  expect(doc.paths['/responses/{id}'].delete).toBeDefined();
  const list = doc.paths['/responses/{id}/input_items'].get;
  expect(list.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['id', 'after', 'limit', 'order', 'include']));
});
