// What a server starts so that money survives a crash (ARCHITECTURE.md, "How money moves"): the replay of
// dead processes' settlement journals (charges whose usage reached a client before the crash) and the
// sweeper that releases reservations whose lease ran out (the runtime renews its own reservations' leases).
// server/main.ts and the crash test's gateway process start the same thing.
import type { SettleInput } from './settle-generation';
import { replaySettlementJournals, type SettlementJournal } from './settlement-journal';
import { startReservationSweeper, type SweepStep } from './sweep-reservations';

export interface SettlementRecovery {
  /** Settlements replayed from dead processes' journals, once they are all committed. */
  replayed: Promise<number>;
  stop(): void;
}

export function startSettlementRecovery(p: {
  /** Resolves once the settlement is committed (the runtime's settlement queue). */
  enqueue: (input: SettleInput) => Promise<void>;
  journal: SettlementJournal | null;
  sweepIntervalMs: number;
  /** Other domains' periodic clean-ups, run on the sweeper's loop. */
  housekeeping?: readonly SweepStep[];
}): SettlementRecovery {
  const replayed = p.journal
    ? replaySettlementJournals(p.journal.dir, (inputs) => Promise.all(inputs.map((s) => p.enqueue(s))).then(() => {}), p.journal).then(
        (n) => {
          if (n) console.log(`Switchboard: settled ${n} generation(s) from the journal of a process that stopped`);
          return n;
        },
        (err: unknown) => {
          console.error('settlement journal replay failed:', (err as Error).message);
          return 0;
        },
      )
    : Promise.resolve(0);
  return { replayed, stop: startReservationSweeper(p.sweepIntervalMs, p.housekeeping) };
}
