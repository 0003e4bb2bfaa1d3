import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaComponents } from './schema-components';

describe('SchemaComponents', () => {
  const Item = z.object({ name: z.string(), size: z.number().default(1) }).meta({ id: 'Item' });

  it('hoists a schema with an id into components and refers to it', () => {
    const components = new SchemaComponents();
    const list = components.convert(z.object({ data: z.array(Item) }), 'output');
    expect(list).toMatchObject({ properties: { data: { items: { $ref: '#/components/schemas/Item' } } } });
    expect(list).not.toHaveProperty('$defs');
    expect(list).not.toHaveProperty('$schema');
    expect(components.schemas.Item).toMatchObject({ required: ['name', 'size'] });
    // The root schema itself named: a bare reference.
    expect(components.convert(Item, 'output')).toEqual({ $ref: '#/components/schemas/Item' });
  });

  it('keeps the request reading of a schema apart from the response reading when they differ', () => {
    const components = new SchemaComponents();
    components.convert(Item, 'output');
    expect(components.convert(Item, 'input')).toEqual({ $ref: '#/components/schemas/ItemInput' });
    // A defaulted field is optional in a request, always present in a response.
    expect(components.schemas.ItemInput.required).toEqual(['name']);
    expect(components.schemas.Item.required).toEqual(['name', 'size']);
  });

  it('renames a referring schema when the schema it refers to was renamed', () => {
    const Outer = z.object({ item: Item }).meta({ id: 'Outer' });
    const components = new SchemaComponents();
    components.convert(Outer, 'output');
    expect(components.convert(Outer, 'input')).toEqual({ $ref: '#/components/schemas/OuterInput' });
    expect(components.schemas.OuterInput).toMatchObject({ properties: { item: { $ref: '#/components/schemas/ItemInput' } } });
    expect(components.schemas.Outer).toMatchObject({ properties: { item: { $ref: '#/components/schemas/Item' } } });
  });

  it('turns recursive schemas into components that refer to themselves', () => {
    type Node = { value: string; children: Node[] };
    const node: z.ZodType<Node> = z.object({ value: z.string(), get children() { return z.array(node); } });
    const components = new SchemaComponents();
    const ref = components.convert(node, 'output') as { $ref: string };
    const name = ref.$ref.replace('#/components/schemas/', '');
    expect(components.schemas[name]).toMatchObject({ properties: { children: { items: { $ref: ref.$ref } } } });
    const wrapped = components.convert(z.object({ tree: node }), 'output') as { properties: { tree: { $ref: string } } };
    expect(components.schemas[wrapped.properties.tree.$ref.replace('#/components/schemas/', '')]).toBeDefined();
  });
});
