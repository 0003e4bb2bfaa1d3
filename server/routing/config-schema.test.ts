import { describe, expect, it } from 'vitest';
import { modelConfigSchema } from './config-schema';

// The operator console's Add model form sends a blank or non-numeric number as NaN, which JSON makes null, and
// shows each message under its field: they say what to enter, not zod's "expected number, received null".
describe('model entry messages', () => {
  const issues = (entry: unknown) => Object.fromEntries((modelConfigSchema.safeParse(entry).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

  it('a blank form: each required field says what to enter', () => {
    const blankForm = { id: 'acme/fast', name: '', context_length: null, max_output_tokens: null, endpoints: [{ provider: 'openai', upstream_model: '', pricing: { input: null, output: null } }] };
    expect(issues(blankForm)).toEqual({
      name: 'enter a name',
      context_length: 'enter a number of tokens',
      max_output_tokens: 'enter a number of tokens',
      'endpoints.0.upstream_model': "enter the provider's own model id",
      'endpoints.0.pricing.input': 'enter a price in US dollars per million tokens (0 for free)',
      'endpoints.0.pricing.output': 'enter a price in US dollars per million tokens (0 for free)',
    });
  });

  it('numbers out of range say so; a wrong type keeps zod words', () => {
    const entry = { id: 'acme/fast', name: 'Fast', context_length: 1.5, max_output_tokens: 0, endpoints: [{ provider: 'openai', upstream_model: 'fast', pricing: { input: -1, output: '2' }, context_length: -5 }] };
    expect(issues(entry)).toEqual({
      context_length: 'a whole number of tokens',
      max_output_tokens: 'a number of tokens above 0',
      'endpoints.0.pricing.input': 'a price cannot be negative',
      'endpoints.0.pricing.output': 'Invalid input: expected number, received string',
      'endpoints.0.context_length': 'a number of tokens above 0',
    });
  });
});
