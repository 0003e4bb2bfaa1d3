import { toErrorBody } from '@/server/errors';
import type { Pricing } from '@/server/routing/routing-table';
import type { MidStreamError, NormalizedUsage } from '@/server/providers/types';
import { byokCharge } from './account-policy';
import { computeCost, type Cost } from './cost';
import type { AttemptRecord, ServedRoute } from './open-route';

/** What a generation produced, for the client's final usage and for settlement. */
export interface GenerationOutcome {
  /** The usage billed (what the client is told). */
  usage: NormalizedUsage;
  /**
   * What the upstream reported when it is more than `usage` (it ignored the output limit and the answer was
   * cut to it): the operator pays the difference (see chargeFor).
   */
  upstreamUsage?: NormalizedUsage;
  /** Whether anything was generated: an empty completion costs nothing. */
  produced: boolean;
  finishReason: string | null;
  /** REFUSED: refused at admission after the reservation was made (handle-chat.ts refuseAdmitted); never charged. */
  status: 'SUCCESS' | 'ERROR' | 'ABORTED' | 'REFUSED';
  error?: MidStreamError | { code: string; message: string };
  ttftMs?: number;
  upstreamId?: string;
  streamed: boolean;
  /** Who served it (absent when no endpoint answered). */
  served?: Pick<ServedRoute, 'candidate' | 'key'>;
  /** Upstream requests made, in order, the serving one last. */
  attempts: AttemptRecord[];
}

export interface Charge extends Cost {
  /** The operator's loss: what the upstream's usage costs at list price beyond the charge. */
  unbilledMicros: bigint;
}

const NOTHING: Charge = { costMicros: 0n, cacheSavingsMicros: 0n, unbilledMicros: 0n };

/**
 * The charge at the serving endpoint's prices, computed once: the same figure goes to the client as usage.cost and to the ledger. It never
 * exceeds the reservation (the most the request may cost the customer, held before the provider was
 * called), so a charge cannot take the account below its floor; what the upstream's usage costs beyond
 * that (more prompt tokens than estimated, output past the limit) is recorded as unbilled.
 */
export function chargeFor(model: Pricing, outcome: Pick<GenerationOutcome, 'usage' | 'upstreamUsage' | 'produced'> & { served?: Pick<ServedRoute, 'key'> }, reservedMicros: bigint): Charge {
  if (!outcome.produced) return NOTHING;
  const billed = computeCost(outcome.usage, model);
  const byok = outcome.served?.key?.byok;
  // With the account's own key the provider bills the account; we charge the fee and lose nothing.
  if (byok) {
    const fee = byokCharge(billed.costMicros, byok.feeBps);
    return { costMicros: fee > reservedMicros ? reservedMicros : fee, cacheSavingsMicros: billed.cacheSavingsMicros, unbilledMicros: 0n };
  }
  const costMicros = billed.costMicros > reservedMicros ? reservedMicros : billed.costMicros;
  const upstreamMicros = outcome.upstreamUsage ? computeCost(outcome.upstreamUsage, model).costMicros : billed.costMicros;
  return { costMicros, cacheSavingsMicros: billed.cacheSavingsMicros, unbilledMicros: upstreamMicros > costMicros ? upstreamMicros - costMicros : 0n };
}


/** What a usage record keeps of an error the client got: its situation (metadata.error_type) and message. */
export function usageErrorOf(err: unknown): { code: string; message: string } {
  const e = toErrorBody(err).body.error;
  return { code: String(e.metadata.error_type ?? e.code), message: e.message };
}
