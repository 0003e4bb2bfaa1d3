// Reservations as leases. A reservation holds the customer's balance until it is settled; if its process
// dies it must be released soon (the sweeper closes reservations past their expiry), but a live process's
// long stream must not be. So a reservation is made with a short expiry (the lease, DEFAULT_LEASE_MS) and
// the process that holds it extends the expiry of all its in-flight reservations in ONE statement every
// lease/3 while they run — until their settlement commits. A process that dies stops renewing: its
// reservations expire within one lease of its last renewal and the next sweep releases them.
//
// Worst case from a kill -9 to the release: lease (the last renewal came just before the death) + one sweep
// interval (+ the sweep itself). Defaults: 90 s + 15 s < 2 minutes. The chat path pays nothing for it: a Set
// insertion at admission and a deletion at settlement; the database sees one statement per renewal period.
import { database } from '@/server/db';
import { CreditLeases } from './credit-leases';
import { ts } from './reserve';

export const DEFAULT_LEASE_MS = 90_000;
export const DEFAULT_SWEEP_INTERVAL_MS = 15_000;

/** The longest a dead process's reservation can hold a balance: lease + sweep interval. */
export function worstCaseReleaseMs(leaseMs: number, sweepIntervalMs: number): number {
  return leaseMs + sweepIntervalMs;
}

// Ids go as one JSON array (the embedded database's client passes no array parameters), looked up through
// the generationId unique index.
const RENEW_SQL = `
  UPDATE "Reservation" SET "expiresAt" = $2::timestamp(3)
  WHERE "generationId" = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb))) AND status = 'ACTIVE'::"ReservationStatus"`;

export class ReservationLeases {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  /** This process's credit leases (credit-leases.ts): same lease length, renewed by their own timer; their draws end with the reservations' release. */
  readonly credit: CreditLeases;

  constructor(
    readonly leaseMs = DEFAULT_LEASE_MS,
    creditLeases = true,
  ) {
    this.credit = new CreditLeases(leaseMs, creditLeases);
  }

  /** The generation's reservation is this process's until release() (call right after reserving). */
  hold(generationId: string): void {
    this.held.add(generationId);
    if (!this.timer) this.start();
  }

  /** Its settlement committed (or it was never reserved): stop renewing it. */
  release(generationId: string): void {
    this.held.delete(generationId);
    this.credit.settled(generationId);
    if (this.held.size === 0) this.stop();
  }

  get size(): number {
    return this.held.size;
  }

  /** Extends every held reservation to now + lease, in one statement. Never rejects (logs, retried next period). */
  renew(now = new Date()): Promise<void> {
    if (this.held.size === 0) return Promise.resolve();
    const ids = [...this.held];
    this.renewing ??= (async () => {
      try {
        await (await database()).sql.query(RENEW_SQL, [JSON.stringify(ids), ts(new Date(now.getTime() + this.leaseMs))], { name: 'sb_renew_leases' });
      } catch (err) {
        console.error(`reservation leases: renewing ${ids.length} failed, will retry:`, (err as Error).message);
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }

  /** Renewal runs every lease/3 while something is held (started by hold, stopped when nothing is). */
  private start(): void {
    this.timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Stops renewing (shutdown; a later hold starts again). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
