// Test support: tests that need a real Redis. TEST_REDIS_URL names it (.ci/run starts Redis when it is installed
// and exports the variable when it answers), as TEST_DATABASE_URL names PostgreSQL. Without it such a suite is
// registered as skipped, with the reason in its name, so a run shows what it did not test.
import { describe } from 'vitest';
import { rawEnv } from '@/server/env';

export function testRedisUrl(): string | undefined {
  return rawEnv('TEST_REDIS_URL');
}

/** `describe` with the Redis URL handed in, or the same suite reported as skipped when there is none. */
export function describeWithRedis(name: string, fn: (redisUrl: string) => void): void {
  const url = testRedisUrl();
  if (url) describe(`${name} [redis]`, () => fn(url));
  else describe.skip(`${name} [redis] (skipped: TEST_REDIS_URL is not set)`, () => fn('redis://unset'));
}
