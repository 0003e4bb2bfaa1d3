// Custom (freeform) tools of the Responses API for models that only know function tools: each is offered as
// a function with one string parameter, `input` (providers/custom-tool-input.ts), its format told in the
// description (a grammar cannot be enforced elsewhere, but the model can follow it); calls and their outputs
// in the conversation become function calls and tool messages, and the model's calls of such a function come
// back as custom_tool_call items (render-response.ts, render-stream.ts). OpenAI endpoints get the client's
// own body instead (passthrough), custom tools included.
import { z } from 'zod';
import { CUSTOM_TOOL_PARAMETER } from '@/server/providers/custom-tool-input';
import type { ResponsesRequest } from './responses-request-schema';

export const customToolSchema = z.object({
  type: z.literal('custom'),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'custom tool names: letters, digits, _ and -, at most 64'),
  description: z.string().nullish(),
  format: z
    .union([
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('grammar'), syntax: z.string().max(64), definition: z.string().max(100_000) }),
      z.looseObject({ type: z.string() }),
    ])
    .nullish(),
});
export type CustomTool = z.output<typeof customToolSchema>;

/** The custom tools of a request (the others, and tools of another type, are not). */
export function customToolsOf(request: Pick<ResponsesRequest, 'tools'> | undefined): CustomTool[] {
  return (request?.tools ?? []).flatMap((t) => {
    const parsed = t.type === 'custom' ? customToolSchema.safeParse(t) : null;
    return parsed?.success ? [parsed.data] : [];
  });
}

/** A custom tool as the function a chat model is offered. */
export function customToolAsFunction(tool: CustomTool) {
  const format = tool.format;
  const grammar = format?.type === 'grammar' && 'definition' in format ? `\n\nThe input must follow this ${String(format.syntax)} grammar:\n${String(format.definition)}` : '';
  const description = `${tool.description ?? ''}${grammar}`.trim();
  return {
    type: 'function' as const,
    function: {
      name: tool.name,
      ...(description ? { description } : {}),
      parameters: {
        type: 'object',
        properties: { [CUSTOM_TOOL_PARAMETER]: { type: 'string', description: 'The whole input of the tool, as plain text (not JSON).' } },
        required: [CUSTOM_TOOL_PARAMETER],
        additionalProperties: false,
      },
    },
  };
}
