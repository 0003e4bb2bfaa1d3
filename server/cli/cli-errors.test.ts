// The CLI as an operator meets it when something is wrong: bad option values must say what to fix.
import { describe, expect, it } from 'vitest';
import { runCommand } from './commands';

describe('CLI errors', () => {
  it('usage:unbilled --days out of range says the range, not that it is not a number', async () => {
    for (const days of ['0', '4000', '1.5']) {
      await expect(runCommand('usage:unbilled', { days })).rejects.toMatchObject({ message: expect.stringContaining('--days must be a whole number from 1 to 3650') });
    }
    await expect(runCommand('usage:unbilled', { days: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('--days must be a number') });
  });
});
