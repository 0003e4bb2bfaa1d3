// The runtime's watch on the admission revision (runtime.admissionRevision): a one-row counter in the database
// that triggers bump on every change that can refuse or reroute an API key's next request (the migration
// 20261128210045_admission_revision lists them). When it moves, the runtime's warm keys are forgotten, so no
// request of theirs leaves for a provider before its admission statement has answered (early-dispatch.ts).
//   - Every process reads it every POLL_MS (one one-row read, off the chat path: the chat path asks the
//     database nothing more than before), so a change made on another instance, by a worker or in psql stops
//     early dispatch within about a second. A read that succeeded vouches for the warm keys for TRUST_MS; after
//     that, with the database unreachable, nothing is dispatched early.
//   - A write through this process's REST API, console or CLI link reads it again before its response is
//     sent (refreshAdmissionRevisions, called by the transports), so on a single server the very next
//     request already waits for its admission.
import { db } from '@/server/db';
import type { WarmKeys } from './early-dispatch';

const POLL_MS = 1_000;
const REVISION_ROW = 1;

/** Every runtime's watch in this process, so a write here reaches them all; on globalThis because the custom server and Next's bundle are two copies of this module. */
const WATCHES = Symbol.for('switchboard.admissionRevisions');
type GlobalWithWatches = typeof globalThis & { [WATCHES]?: Set<AdmissionRevision> };
const watches = () => ((globalThis as GlobalWithWatches)[WATCHES] ??= new Set());

export async function readAdmissionRevision(): Promise<bigint> {
  const row = await (await db()).admissionRevision.findUnique({ where: { id: REVISION_ROW }, select: { revision: true } });
  return row?.revision ?? 0n;
}

export class AdmissionRevision {
  private revision: bigint | null = null;
  private inflight: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private failing = false;
  private closed = false;
  /** Resolves after the first read (successful or not). */
  readonly ready: Promise<void>;

  /** @param warmKeys created untrusted (new WarmKeys(false)): nothing is dispatched early before the first read. */
  constructor(
    private readonly warmKeys: WarmKeys,
    pollMs = POLL_MS,
  ) {
    this.ready = this.poll();
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
    watches().add(this);
  }

  /** Reads the revision with a read that starts now (not one already in flight, which may predate a write just committed); never rejects. */
  async check(): Promise<void> {
    if (this.inflight) await this.inflight;
    await this.poll();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    watches().delete(this);
  }

  private poll(): Promise<void> {
    this.inflight ??= this.read().finally(() => (this.inflight = null));
    return this.inflight;
  }

  private async read(): Promise<void> {
    const startedAt = Date.now();
    try {
      const revision = await readAdmissionRevision();
      // The first read forgets too: a key remembered before it may have been admitted before a change it cannot see.
      if (revision !== this.revision) this.warmKeys.forgetAll();
      this.revision = revision;
      this.warmKeys.trust(startedAt);
      this.failing = false;
    } catch (err) {
      if (!this.failing && !this.closed) console.error('Switchboard: reading the admission revision failed; no early dispatch until it succeeds:', (err as Error).message);
      this.failing = true;
    }
  }
}

/**
 * After a write in this process (REST API, console, CLI link): every runtime of the process reads the revision
 * now and forgets its warm keys if the write moved it. Costs one one-row read; never rejects.
 */
export async function refreshAdmissionRevisions(): Promise<void> {
  await Promise.all([...watches()].map((w) => w.check()));
}
