// Group admission for API keys. Admissions of a key that arrive while one of its statements is in the
// database wait for it and then go together, as one statement: one round trip and one commit for the group.
// (A commit waits for the WAL to reach the disk while it holds the account's row lock, so statement after
// statement one busy key would be admitted at one request per disk flush, and queue behind its own
// statements.) No request waits for a timer: a request whose key has nothing in flight is sent at once; keys
// do not wait for each other. One batcher per process, owned by the runtime (server/runtime).
import type { CreditLeases, LeaseDraw } from './credit-leases';
import type { SettlementQueue } from './settlement-queue';
import { reserveInOneStatement, type ReservationRow } from './reserve';
import { interpretKeyAdmission, reserveForApiKey, type KeyAdmission, type KeyAdmissionInput } from './reserve-for-api-key';

/** Statements in flight at once, over all keys (the pool also serves settlement and everything else). */
const MAX_IN_FLIGHT = 6;
/** Requests per statement. */
const BATCH_MAX = 64;

interface Waiting {
  input: KeyAdmissionInput;
  resolve: (a: KeyAdmission) => void;
  reject: (err: unknown) => void;
  /** Taken from this process's credit lease on the key's account (credit-leases.ts). */
  draw: LeaseDraw | null;
}

export class KeyAdmissionBatcher {
  /** Keys' accounts as last admitted, and whether the key and member have no spend limit (may be drawn from a lease). */
  private readonly keyAccounts = new Map<string, { accountId: string; unlimited: boolean }>();

  /**
   * @param credit this process's credit leases (null: every admission is decided against the account).
   * @param settlements this process's settlement queue: what it holds of an account is written before that account
   *   is refused for credit (null: refusals are not looked at again).
   */
  constructor(
    private readonly credit: CreditLeases | null = null,
    private readonly settlements: Pick<SettlementQueue, 'holdsCreditOf' | 'flush'> | null = null,
  ) {}

  /** Per key, its waiting admissions in arrival order. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** Keys with admissions waiting and no statement in flight, in the order they became ready. */
  private ready: string[] = [];
  private readonly busyKeys = new Set<string>();
  private inFlight = 0;

  /**
   * Authenticates the key, checks the model and reserves, as reserveForApiKey does, grouped with the same
   * key's admissions that arrive while one of its statements is in flight.
   */
  reserve(input: KeyAdmissionInput): Promise<KeyAdmission> {
    if (input.now) return reserveForApiKey(input); // a pinned clock (tests): alone
    return new Promise<KeyAdmission>((resolve, reject) => {
      const key = input.keyHash;
      let list = this.waiting.get(key);
      if (!list) {
        this.waiting.set(key, (list = []));
        if (!this.busyKeys.has(key)) this.ready.push(key);
      }
      let draw: LeaseDraw | null = null;
      if (this.credit) {
        const known = this.keyAccounts.get(key);
        let amount = input.amountMicros;
        for (const c of input.candidates ?? []) if (c.amountMicros > amount) amount = c.amountMicros;
        draw = known ? this.credit.draw(known.accountId, input.generationId, amount, known.unlimited) : null;
        if (draw) input = { ...input, leaseId: draw.leaseId };
      }
      list.push({ input, resolve, reject, draw });
      this.pump();
    });
  }

  /**
   * Sends a statement per group of ready keys (up to BATCH_MAX admissions). Work per call is what it sends,
   * not what waits: a busy key's admissions are never looked at until its statement is back (a scan of one
   * queue of everything waiting, on every arrival, was quadratic under a burst for one key).
   */
  private pump(): void {
    while (this.ready.length && this.inFlight < MAX_IN_FLIGHT) {
      const group: Waiting[] = [];
      const keys: string[] = [];
      while (this.ready.length && group.length < BATCH_MAX) {
        const key = this.ready.shift()!;
        const list = this.waiting.get(key)!;
        const taken = list.splice(0, BATCH_MAX - group.length);
        for (const w of taken) group.push(w);
        if (list.length === 0) this.waiting.delete(key);
        this.busyKeys.add(key);
        keys.push(key);
      }
      this.inFlight++;
      void this.runGroup(group).finally(() => {
        this.inFlight--;
        for (const key of keys) {
          this.busyKeys.delete(key);
          // What arrived for it meanwhile (or did not fit in the group) goes next.
          if (this.waiting.has(key)) this.ready.push(key);
        }
        this.pump();
      });
    }
  }

  private async runGroup(group: Waiting[]): Promise<void> {
    const now = new Date();
    if (group.length === 1) return this.decide(group[0], alone(group[0], now));
    let rows: ReservationRow[];
    try {
      rows = await reserveInOneStatement(group.map((w) => w.input), now);
    } catch {
      // The group statement failed as a whole (nothing was written): each request on its own.
      for (const w of group) await this.decide(w, alone(w, now));
      return;
    }
    for (const [i, w] of group.entries()) {
      const row = rows[i];
      // Admitted, or refused before money (401/403, the key or the organization policy): decided. Usable but not admitted here: its account (or
      // one of its keys) could not cover the whole group, so it is decided alone, in order.
      if (!usable(row) || row.reservationId) await this.decide(w, row);
      else await this.decide(w, alone(w, now));
    }
  }

  private async decide(w: Waiting, pending: Promise<ReservationRow | undefined> | ReservationRow | undefined): Promise<void> {
    try {
      let row = await pending;
      if (this.credit) this.leaseBookkeeping(w, row);
      // Refused for credit while this process holds some of the account's: its lease on the account (which goes back
      // to the account: a lease must never turn an admission into a 402), or finished requests' settlements waiting
      // in the queue (up to 100 ms), whose reservations still hold what they did not spend (a client sending requests
      // one after another faster than that was refused with most of its credit unspent; they are written first).
      // Either way the request is decided again, once.
      if (usable(row) && !row.reservationId) {
        const gaveBack = this.credit ? await this.credit.giveBack(row.accountId) : false;
        const queued = this.settlements?.holdsCreditOf(row.accountId) ?? false;
        if (queued) await this.settlements!.flush();
        if (gaveBack || queued) {
          row = await alone({ ...w, input: { ...w.input, leaseId: undefined } }, new Date());
          if (this.credit) this.leaseBookkeeping(w, row);
        }
      }
      w.resolve(await interpretKeyAdmission(row, w.input));
    } catch (err) {
      if (w.draw) this.credit?.decided(w.draw, w.input.generationId, false, null, true);
      w.draw = null;
      w.reject(err);
    }
  }

  /** What the statement said about the key, its account and the lease, for the next requests. */
  private leaseBookkeeping(w: Waiting, row: ReservationRow | undefined): void {
    const credit = this.credit!;
    const drawn = !!(row?.drawn && row.reservationId);
    if (w.draw) {
      credit.decided(w.draw, w.input.generationId, drawn, drawn ? BigInt(row!.reservedMicros ?? '0') : null, row?.leaseLive !== false);
      w.draw = null;
    }
    if (!row?.id || !row.accountId || row.deleted) {
      this.keyAccounts.delete(w.input.keyHash);
      return;
    }
    const unlimited = !row.hasCreditLimit && row.memberUnlimited !== false;
    if (this.keyAccounts.size > 10_000) this.keyAccounts.clear();
    this.keyAccounts.set(w.input.keyHash, { accountId: row.accountId, unlimited });
    if (drawn) {
      // Early dispatch measures a drawn request's headroom against the lease, not the account.
      row!.headroomMicros = credit.remaining(row!.accountId).toString();
    } else if (row.reservationId) {
      credit.admittedPerRequest(row.accountId, BigInt(row.reservedMicros ?? '0'), unlimited);
    }
  }
}

/** The key and the policy allow the request: only credit (the account's, the key's or the member's window) can refuse it. */
const usable = (row: ReservationRow | undefined): row is ReservationRow =>
  !!row?.id && !row.deleted && !row.expired && !row.disabled && !row.suspended && row.modelAllowed && row.orgModelAllowed && row.providerAllowed;

const alone = (w: Waiting, now: Date) => reserveInOneStatement([w.input], now).then((rows) => rows[0]);
