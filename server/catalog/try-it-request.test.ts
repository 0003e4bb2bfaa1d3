import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from '@/server/routing/build-routing-table';
import { trialReservationMicros } from './list-models-for-account';
import { pickTryItModel, type TryItCandidate } from './try-it-request';

const m = (id: string, usable: boolean, covered: boolean): TryItCandidate => ({ id, usability: { usable }, trial: { covered } });

describe('pickTryItModel', () => {
  it("takes the organization's default model when it works and is covered", () => {
    expect(pickTryItModel([m('openai/gpt-4o-mini', true, true), m('acme/x', true, true)], 'acme/x')).toBe('acme/x');
  });

  it('skips models that cannot be used or that the balance cannot cover', () => {
    const list = [m('openai/gpt-4o-mini', true, false), m('anthropic/claude-haiku-4.5', false, true), m('google/gemini-2.5-flash', true, true), m('switchboard/echo', true, true)];
    expect(pickTryItModel(list)).toBe('google/gemini-2.5-flash');
  });

  it('falls back to any usable covered model, then to echo', () => {
    expect(pickTryItModel([m('acme/cheap', true, true)])).toBe('acme/cheap');
    expect(pickTryItModel([m('acme/dear', true, false)])).toBe('switchboard/echo');
  });
});

describe('trialReservationMicros (default catalog)', () => {
  const table = buildRoutingTable({ env: parseEnv({}), readVar: () => undefined });
  it('is nothing for switchboard/echo, which is free, and a fraction of a cent for gpt-4o-mini', () => {
    expect(trialReservationMicros(table.models.get('switchboard/echo')!)).toBe(0n);
    const mini = trialReservationMicros(table.models.get('openai/gpt-4o-mini')!);
    expect(mini).toBeGreaterThan(0n);
    expect(mini).toBeLessThan(10_000n);
  });
});
