import { describe, expect, it } from 'vitest';
import { convertToolParameters } from './convert-schema';

const convert = (schema: Record<string, unknown>) => convertToolParameters(schema, 'tool');

describe('convertToolParameters', () => {
  it('strips unsupported keywords at every depth but never a property that happens to share their name', () => {
    expect(
      convert({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:search',
        type: 'object',
        additionalProperties: false,
        properties: {
          // Property NAMES that collide with keywords are data, not keywords.
          additionalProperties: { type: 'boolean', default: false },
          pattern: { type: 'string', pattern: '^[a-z]+$', examples: ['abc'] },
          tags: { type: 'array', uniqueItems: true, minItems: 1, items: { type: 'object', additionalProperties: false, properties: { name: { type: 'string', format: 'email' } } } },
          when: { type: 'string', format: 'date-time', $comment: 'ISO 8601' },
          limit: { type: 'integer', exclusiveMinimum: 0, multipleOf: 5, maximum: 100 },
        },
        required: ['pattern'],
        patternProperties: { '^x-': { type: 'string' } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        additionalProperties: { type: 'boolean', default: false },
        pattern: { type: 'string', pattern: '^[a-z]+$' },
        tags: { type: 'array', minItems: 1, items: { type: 'object', properties: { name: { type: 'string' } } } },
        when: { type: 'string', format: 'date-time' },
        limit: { type: 'integer', maximum: 100 },
      },
      required: ['pattern'],
    });
  });

  it('turns null in type arrays, anyOf and enum into nullable, and oneOf into anyOf', () => {
    expect(
      convert({
        type: 'object',
        properties: {
          a: { type: ['string', 'null'], description: 'A' },
          b: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], description: 'B' },
          c: { oneOf: [{ type: 'string' }, { type: 'number' }] },
          d: { type: 'string', enum: ['x', 'y', null] },
          e: { type: ['string', 'number'] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true, description: 'A' },
        b: { type: 'integer', minimum: 1, nullable: true, description: 'B' },
        c: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        d: { type: 'string', enum: ['x', 'y'], nullable: true },
        e: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
    });
  });

  it('keeps string enums, spells out other enums in the description and maps const', () => {
    expect(
      convert({
        type: 'object',
        properties: {
          level: { type: 'integer', enum: [1, 2, 3], description: 'Severity.' },
          kind: { const: 'event' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        level: { type: 'integer', description: 'Severity. Allowed values: 1, 2, 3.' },
        kind: { enum: ['event'] },
      },
    });
  });

  it('inlines local $refs, stops at recursion and merges allOf', () => {
    expect(
      convert({
        type: 'object',
        $defs: {
          Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          Node: { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#/$defs/Node', description: 'Nested' } } },
        },
        definitions: { Named: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        properties: {
          home: { $ref: '#/$defs/Address', description: 'Where they live' },
          tree: { $ref: '#/$defs/Node' },
          person: { allOf: [{ $ref: '#/definitions/Named' }, { properties: { age: { type: 'integer' } }, required: ['age'] }], description: 'Person' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], description: 'Where they live' },
        tree: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            // Node inside Node: Gemini cannot express recursion, so the inner one is left unconstrained.
            child: { description: 'Nested' },
          },
        },
        person: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'], description: 'Person' },
      },
    });
  });

  it('rejects a $ref it cannot resolve', () => {
    expect(() => convert({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } })).toThrow(
      expect.objectContaining({ code: 'bad_request', message: expect.stringContaining('https://example.com/a.json') }),
    );
  });

  it('returns undefined for functions without arguments', () => {
    expect(convertToolParameters(undefined, 'f')).toBeUndefined();
    expect(convert({ type: 'object', properties: {}, additionalProperties: false })).toBeUndefined();
    expect(convert({ type: 'object' })).toBeUndefined();
  });
});
