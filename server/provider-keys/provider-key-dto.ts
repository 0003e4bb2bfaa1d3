// A stored provider key as the API shows it: which provider and a hint, never the key or its ciphertext.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';

export const setProviderKeyInput = z.strictObject({
  key: safeString()
    .trim()
    .min(8, 'key: too short to be a provider API key')
    .max(4096)
    .regex(/^\S+$/, 'key must not contain spaces or line breaks')
    .describe('The provider API key; stored encrypted, never returned'),
});
export type SetProviderKeyInput = z.input<typeof setProviderKeyInput>;

export const providerKeySelect = { provider: true, hint: true, createdAt: true, updatedAt: true } as const;

export function toProviderKeyDto(k: { provider: string; hint: string; createdAt: Date; updatedAt: Date }) {
  return { provider: k.provider, hint: k.hint, created_at: k.createdAt.toISOString(), updated_at: k.updatedAt.toISOString() };
}
export type ProviderKeyDto = ReturnType<typeof toProviderKeyDto>;
