import type { CatalogModel } from '@/server/catalog/resolve-model';
import type { MidStreamError, NormalizedUsage } from '@/server/providers/types';
import { computeCost, type Cost } from './cost';

/** What a generation produced, for the client's final usage and for settlement. */
export interface GenerationOutcome {
  usage: NormalizedUsage;
  /** Whether anything was generated: an empty completion costs nothing. */
  produced: boolean;
  finishReason: string | null;
  status: 'SUCCESS' | 'ERROR' | 'ABORTED';
  error?: MidStreamError | { code: string; message: string };
  ttftMs?: number;
  upstreamId?: string;
  streamed: boolean;
}

/** The charge, computed once: the same figure goes to the client as usage.cost and to the ledger. */
export function chargeFor(model: CatalogModel, outcome: Pick<GenerationOutcome, 'usage' | 'produced'>): Cost {
  return outcome.produced ? computeCost(outcome.usage, model) : { costMicros: 0n, cacheSavingsMicros: 0n };
}

export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(chars / 4);
}
