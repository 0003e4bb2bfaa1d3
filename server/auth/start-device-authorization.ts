// Device authorization (RFC 8628 shape): a CLI or editor asks for a code pair, shows the user code and the
// verification URL, and polls with the device code while the signed-in user approves in a browser.
// The device code is a secret (stored hashed); the user code is short, typable and unique while it lives.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { clientKindSchema } from './auth-tokens';
import { generateSecret, generateUserCode, hashSecret, TOKEN_PREFIX } from './secret-token';

export const DEVICE_CODE_TTL_SECONDS = 15 * 60;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

export const startDeviceAuthorizationInput = z.object({
  client_name: safeString().trim().max(100).optional().describe('Shown to the user on the approval page, e.g. "Switchboard CLI on my-laptop"'),
  client_kind: clientKindSchema.default('cli'),
});
export type StartDeviceAuthorizationInput = z.input<typeof startDeviceAuthorizationInput>;

export interface DeviceCodeDto {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export async function startDeviceAuthorization(p: { input: StartDeviceAuthorizationInput; origin: string }): Promise<DeviceCodeDto> {
  const input = startDeviceAuthorizationInput.parse(p.input);
  const prisma = await db();
  const deviceCode = generateSecret(TOKEN_PREFIX.device);
  const expiresAt = new Date(Date.now() + DEVICE_CODE_TTL_SECONDS * 1000);
  // Expired rows keep their user codes; clear them now and then so the code space stays free.
  await prisma.deviceAuthorization.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 24 * 3600_000) }, status: { not: 'CONSUMED' } } });
  for (let attempt = 0; attempt < 5; attempt++) {
    const userCode = generateUserCode();
    try {
      await prisma.deviceAuthorization.create({
        data: {
          deviceCodeHash: hashSecret(deviceCode),
          userCode,
          clientName: input.client_name ?? '',
          clientKind: input.client_kind.toUpperCase() as 'CLI' | 'EDITOR' | 'OTHER',
          intervalSecs: DEVICE_POLL_INTERVAL_SECONDS,
          expiresAt,
        },
      });
      const verification = `${p.origin}/device`;
      return {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: verification,
        verification_uri_complete: `${verification}?user_code=${encodeURIComponent(userCode)}`,
        expires_in: DEVICE_CODE_TTL_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    } catch (err) {
      if ((err as { code?: string }).code !== 'P2002') throw err; // a user code collision: draw again
    }
  }
  throw new AppError('service_unavailable', 'Could not allocate a user code, try again');
}

/** "wdjb mjht", "WDJBMJHT" → "WDJB-MJHT"; null when it cannot be a user code. */
export function normalizeUserCode(raw: string): string | null {
  const letters = raw.toUpperCase().replace(/[^A-Z]/g, '');
  if (!/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/.test(letters)) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}
