// Property-based tests of the ledger (fast-check), on PGlite and PostgreSQL. Random sequences of paid
// grants, refunds (negative REFUND entries), promotional grants with and without expiry, reservations
// with and without a capped key, settlements below and above the hold, releases (zero cost), aborts and
// errors, crashes swept by the sweeper (and settlements arriving after it), and promotional expiry.
// Reservations with the key go the way API-key requests do (by the key's hash, grouped per key by the
// runtime's KeyAdmissionBatcher); those without, as a session principal's (reserveCredits).
//   1. Sequentially, each operation does exactly what an in-memory model predicts (admission included),
//      and after every step: paid + promo == Σ ledger entries, reserved == Σ ACTIVE reservations,
//      Σ unexpired grants' remaining == promo, one usage record per closed reservation, key window ==
//      active holds + settled costs, and a just-admitted request left available ≥ −floor.
//   2. Concurrently (groups of operations at once; real interleavings on PostgreSQL), the same
//      conservation invariants hold after every group, nothing deadlocks or fails except 402s, and a group
//      of admissions never takes available below the floor however they race.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { hashSecret } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { createUser } from '@/server/users/create-user';
import { describeEachDatabase } from '@/test/db';
import { brokenInvariant, LedgerModel, opArb, runOp, snapshot, type Op, type Subject } from '@/test/ledger-ops';
import { microsToUsd } from './money';

const setupArb = fc.record({
  floor: fc.constantFrom(0n, 0n, 400_000n),
  // Small enough next to the grants that the key's window, not only the account, often decides admission.
  // null: a key without a limit, whose requests this process draws from a credit lease once the account is busy.
  keyLimit: fc.option(fc.integer({ min: 1, max: 6 }).map((n) => BigInt(n) * 400_000n), { nil: null, freq: 2 }),
  // A balance many requests deep: the account is leased for (ledger/credit-leases.ts) until it runs low.
  opening: fc.constantFrom(0n, 40_000_000n),
});

async function newSubject(setup: { floor: bigint; keyLimit: bigint | null }): Promise<Subject> {
  const user = await createUser({ email: `prop-${randomUUID()}@example.com` });
  const prisma = await db();
  if (setup.floor) await prisma.account.update({ where: { id: user.personal_account_id }, data: { creditFloorMicros: setup.floor } });
  const { apiKey, key } = await createApiKey({ userId: user.id, input: { name: 'prop', credit_limit: setup.keyLimit === null ? null : microsToUsd(setup.keyLimit) } });
  return { accountId: user.personal_account_id, keyId: apiKey.id, keyHash: hashSecret(key), floor: setup.floor, keyLimit: setup.keyLimit, gens: [], startedAt: Date.now() };
}

/** Leaves no ACTIVE reservation behind for the next run's sweeps to trip over. */
const cleanUp = (s: Subject) => runOp(s, { t: 'sweep' });

const reserveBurstArb: fc.Arbitrary<Op[]> = fc.array(
  fc.record({ t: fc.constant('reserve' as const), micros: fc.bigInt({ min: 100_000n, max: 1_500_000n }), withKey: fc.boolean() }),
  { minLength: 3, maxLength: 8 },
);
const groupArb: fc.Arbitrary<Op[]> = fc.oneof(fc.array(opArb, { minLength: 1, maxLength: 6 }), reserveBurstArb);
const onlyAdds = (group: Op[]) => group.every((op) => op.t === 'reserve' || op.t === 'grant' || op.t === 'promo');

// A failure found late (or shrinking through many database runs) stops after 150 s with fast-check's own
// report (counterexample so far, seed, path), not at the test's 180 s timeout with nothing said; a run that
// has not reached numRuns by then fails too.
const inTime = { plugins: [fc.interruptAfterTimeLimit(150_000, { failOnInterrupt: true })] };

describeEachDatabase('ledger properties', () => {
  /** Runs `ops` on a new subject, checking each outcome against the model and the invariants after each. */
  async function checkAgainstModel(setup: { floor: bigint; keyLimit: bigint | null; opening: bigint }, generated: Op[]): Promise<void> {
    const s = await newSubject(setup);
    const ops: Op[] = setup.opening ? [{ t: 'grant', micros: setup.opening }, ...generated] : generated;
    const model = new LedgerModel(s);
    try {
      for (const [i, op] of ops.entries()) {
        const gen = op.t === 'settle' && s.gens.length ? s.gens[op.pick % s.gens.length] : undefined;
        const predicted = op.t === 'settle' ? undefined : model.apply(op);
        const outcome = await runOp(s, op);
        if (op.t === 'settle') model.apply(op, gen);
        const where = `after op #${i} ${JSON.stringify(op, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`;
        if (op.t === 'reserve') expect(outcome.admitted, `admission ${where}`).toBe(predicted);
        const x = await snapshot(s);
        expect(brokenInvariant(x), where).toBeNull();
        // A credit lease's slack is held on the account but by no generation; a drawn generation is not in the key's window until settled.
        expect({ paid: x.paid, promo: x.promo, reserved: x.reserved - x.leaseSlack, keyWindow: x.keyWindow + x.keyUnheldActive, records: x.records }, where).toEqual({
          paid: model.paid,
          promo: model.promoTotal,
          reserved: model.reserved,
          keyWindow: model.keyWindow,
          records: model.records,
        });
        if (outcome.admitted) expect(x.paid + x.promo - x.reserved, `available at admission ${where}`).toBeGreaterThanOrEqual(-s.floor);
        expect(x.leaseSlack, `lease slack ${where}`).toBeGreaterThanOrEqual(0n);
      }
    } finally {
      await cleanUp(s);
    }
  }

  it('every operation does what the model predicts; the invariants hold after each', { timeout: 180_000 }, async () => {
    await fc.assert(fc.asyncProperty(setupArb, fc.array(opArb, { minLength: 1, maxLength: 25 }), checkAgainstModel), { numRuns: 30, ...inTime });
  });

  // A busy account with a key without a limit: its requests are drawn from this process's credit lease
  // (ledger/credit-leases.ts) once two were admitted within a second, until it runs low (then the lease's
  // unlent part goes back and requests are decided per request). The model knows nothing of leases: every
  // admission it predicts must still happen, every refusal too, and every charge be exact.
  it('a busy account drawn from credit leases: the model still predicts every admission and charge', { timeout: 180_000 }, async () => {
    const keyedReserve = fc.record({ t: fc.constant('reserve' as const), micros: fc.bigInt({ min: 100_000n, max: 3_000_000n }), withKey: fc.constant(true) });
    const leaseOpArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 8, arbitrary: keyedReserve },
      { weight: 5, arbitrary: opArb.filter((op) => op.t === 'settle') },
      { weight: 2, arbitrary: opArb.filter((op) => op.t !== 'settle' && op.t !== 'reserve') },
    );
    const leaseSetup = fc.record({ floor: fc.constantFrom(0n, 400_000n), keyLimit: fc.constant(null), opening: fc.bigInt({ min: 2_000_000n, max: 60_000_000n }) });
    await fc.assert(fc.asyncProperty(leaseSetup, fc.array(leaseOpArb, { minLength: 5, maxLength: 40 }), checkAgainstModel), { numRuns: 20, ...inTime });
  });

  it('concurrent interleavings keep the ledger conserved and admission within the floor', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(setupArb, fc.array(groupArb, { minLength: 1, maxLength: 6 }), async (setup, groups) => {
        const s = await newSubject(setup);
        // Start with something to spend, so that admissions race for it.
        await runOp(s, { t: 'grant', micros: 3_000_000n });
        try {
          for (const [i, group] of groups.entries()) {
            const before = await snapshot(s);
            const results = await Promise.allSettled(group.map((op) => runOp(s, op)));
            for (const r of results) if (r.status === 'rejected') throw r.reason;
            const after = await snapshot(s);
            expect(brokenInvariant(after), `after group #${i}`).toBeNull();
            if (onlyAdds(group) && before.paid + before.promo - before.reserved >= -s.floor) {
              expect(after.paid + after.promo - after.reserved, `available after admissions in group #${i}`).toBeGreaterThanOrEqual(-s.floor);
            }
          }
          await cleanUp(s);
          const closed = await snapshot(s);
          expect(brokenInvariant(closed)).toBeNull();
          expect(closed.reserved).toBe(0n);
        } finally {
          await cleanUp(s);
        }
      }),
      { numRuns: 25, ...inTime },
    );
  });
});
