import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from '@/server/routing/build-routing-table';
import { toModelDto } from './models-dto';

// The built-in catalog (routing/default-catalog.ts) as /api/v1/models shows it.
const table = buildRoutingTable({ env: parseEnv({}), readVar: () => undefined });
const dto = (id: string) => toModelDto(table.models.get(id)!);

describe('toModelDto: PDF input', () => {
  it('Claude, Gemini and GPT models take PDFs: supportsPdf and "file" among the input modalities', () => {
    for (const id of ['anthropic/claude-haiku-4.5', 'google/gemini-2.5-flash', 'openai/gpt-4o-mini', 'openai/gpt-6.2-sol']) {
      expect(dto(id)).toMatchObject({ supportsPdf: true, architecture: { modality: 'text+image+file->text', input_modalities: ['text', 'image', 'file'] } });
    }
  });

  it('DeepSeek takes none', () => {
    expect(dto('deepseek/deepseek-v4-pro')).toMatchObject({ supportsPdf: false, architecture: { modality: 'text->text', input_modalities: ['text'] } });
    expect(dto('deepseek/deepseek-v4.1-flash').architecture.input_modalities).toEqual(['text', 'image']);
  });
});
