// The settlement journal: what makes a response the client received chargeable even if the process dies
// right after (kill -9, OOM, power to the process but not the disk). Settlements are written to the database
// in batches after the response (settlement-queue.ts); until a batch commits they live only in memory.
// So each generation's settlement is appended here, with one synchronous write(2), BEFORE its final usage is
// sent: once the client can see usage.cost, the kernel holds the line, and a later kill -9 cannot lose it
// (no fsync: surviving the process is the goal; surviving the machine would cost an fsync per response).
// At start the server replays the journals of dead processes (replaySettlementJournals): settlement is
// idempotent per generation (an ACTIVE reservation is settled, an EXPIRED one is settled late, a SETTLED one
// is left alone), so a line settled before the crash is harmless to replay.
//
// Compaction: a segment file whose lines are all committed is emptied in place (ftruncate) or, if it was
// rotated out for size, deleted. One file per process, named <pid>-<random>.jsonl, so a restarted server
// (or a second instance sharing the directory on the same host) can tell a dead process's file from a
// live one's.
//
// Several processes on one host (WORKERS=N, server/cluster/) share the directory: each writes its own file and
// replays the files of dead ones when it starts. A file is claimed before it is replayed, by renaming it to
// `<file>.replay-<claimer pid>-<random>` (rename is atomic: of two workers starting together, one gets it), so no
// two replay the same file; a claim whose claimer died is taken over like a dead process's file.
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SettleInput } from './settle-generation';

/** A segment is rotated out once it holds this much while lines of it are still being settled. */
const ROTATE_BYTES = 4 * 1024 * 1024;
const FILE_PATTERN = /^(\d+)-[0-9a-f]+\.jsonl$/;
/** A file claimed for replay by the process whose pid ends the name. */
const CLAIMED_PATTERN = /^(\d+-[0-9a-f]+\.jsonl)\.replay-(\d+)-[0-9a-f]+$/;
/** Claims this process is replaying now (a claim with our pid and not here was left by a predecessor with our pid). */
const claimsInProgress = new Set<string>();

export interface JournalSegment {
  readonly path: string;
  fd: number;
  bytes: number;
  /** Lines appended and not yet committed to the database. */
  outstanding: number;
}

export class SettlementJournal {
  private current: JournalSegment | null = null;
  private readonly name = `${process.pid}-${randomBytes(6).toString('hex')}`;
  private sequence = 0;
  private failures = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Records a settlement before its usage reaches the client; returns the segment to acknowledge once it is
   * committed, or null if the journal could not be written (a full or read-only disk: logged, and the
   * response goes on — the settlement queue still writes it, only a crash before then would lose it).
   */
  append(input: SettleInput): JournalSegment | null {
    try {
      let segment = this.current;
      if (!segment || segment.bytes >= ROTATE_BYTES) segment = this.current = this.open();
      const line = serializeSettlement(input);
      writeSync(segment.fd, line);
      segment.bytes += Buffer.byteLength(line);
      segment.outstanding++;
      return segment;
    } catch (err) {
      if (this.failures++ % 1000 === 0) console.error(`settlement journal: cannot write to ${this.dir} (${this.failures}×):`, (err as Error).message);
      return null;
    }
  }

  /** The settlement appended to `segment` is committed: a segment with nothing outstanding is compacted. */
  settled(segment: JournalSegment): void {
    if (--segment.outstanding > 0 || segment.fd < 0) return;
    if (segment === this.current) {
      ftruncateSync(segment.fd, 0); // appends (O_APPEND) start again at offset 0
      segment.bytes = 0;
    } else {
      closeSync(segment.fd);
      segment.fd = -1;
      unlinkSync(segment.path);
    }
  }

  /** Clean shutdown, after the settlement queue drained: a file with nothing outstanding is removed. */
  close(): void {
    const segment = this.current;
    this.current = null;
    if (!segment || segment.fd < 0) return;
    closeSync(segment.fd);
    segment.fd = -1;
    if (segment.outstanding === 0) unlinkSync(segment.path);
  }

  /** The files this journal writes (a replay skips them). */
  owns(file: string): boolean {
    return file.startsWith(`${this.name}`);
  }

  private open(): JournalSegment {
    const file = path.join(this.dir, `${this.name}${this.sequence++ ? `${this.sequence}` : ''}.jsonl`);
    return { path: file, fd: openSync(file, 'a', 0o600), bytes: 0, outstanding: 0 };
  }
}

/** One line: the settlement as JSON, bigints as decimal strings (spelled out: a replacer function costs more). */
export function serializeSettlement(input: SettleInput): string {
  const u = input.usage;
  const usage = { ...u, cacheSavingsMicros: u.cacheSavingsMicros?.toString(), unbilledMicros: u.unbilledMicros?.toString(), providerCostMicros: u.providerCostMicros?.toString() };
  return JSON.stringify({ ...input, costMicros: input.costMicros.toString(), usage }) + '\n';
}

const micros = z.union([z.string().regex(/^-?\d+$/), z.number().int()]).transform((v) => BigInt(v));
const journalLine = z.object({
  generationId: z.string().min(1),
  accountId: z.string().min(1),
  costMicros: micros,
  usage: z
    .object({
      model: z.string(),
      provider: z.string(),
      promptTokens: z.number().int(),
      completionTokens: z.number().int(),
      cachedTokens: z.number().int(),
      cacheWriteTokens: z.number().int(),
      reasoningTokens: z.number().int(),
      latencyMs: z.number().int(),
      status: z.enum(['SUCCESS', 'ERROR', 'ABORTED', 'REFUSED']),
      streamed: z.boolean(),
      cacheSavingsMicros: micros.optional(),
      unbilledMicros: micros.optional(),
      byok: z.boolean().optional(),
      providerCostMicros: micros.nullish(),
    })
    .passthrough(),
});

/** The settlements in one journal file; a line that does not parse (cut by a machine crash) is skipped. */
export function readJournalFile(file: string): SettleInput[] {
  const out: SettleInput[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = journalLine.safeParse(json);
    if (parsed.success) out.push(parsed.data as SettleInput);
  }
  return out;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false; // a predecessor that had our pid (a container restarted as pid 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Settles every generation recorded in the journals of dead processes in `dir`, then deletes those files.
 * `settle` must resolve once all the given settlements are committed (the settlement queue does). Returns
 * how many settlements were replayed. A file is deleted only after its settlements committed, so a crash
 * during the replay replays it again.
 */
export async function replaySettlementJournals(dir: string, settle: (inputs: SettleInput[]) => Promise<void>, own?: SettlementJournal): Promise<number> {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return 0; // no journal yet
  }
  let replayed = 0;
  for (const file of files) {
    const m = FILE_PATTERN.exec(file);
    const claimed = m ? null : CLAIMED_PATTERN.exec(file);
    if (m ? own?.owns(file) || processAlive(Number(m[1])) : !claimed || claimsInProgress.has(file) || processAlive(Number(claimed[2]))) continue;
    const claim = `${m ? file : claimed![1]}.replay-${process.pid}-${randomBytes(4).toString('hex')}`;
    const full = path.join(dir, claim);
    try {
      renameSync(path.join(dir, file), full);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another process claimed it first
      throw err;
    }
    claimsInProgress.add(claim);
    try {
      const byGeneration = new Map(readJournalFile(full).map((s) => [s.generationId, s]));
      if (byGeneration.size) await settle([...byGeneration.values()]);
      unlinkSync(full);
      replayed += byGeneration.size;
    } finally {
      claimsInProgress.delete(claim);
    }
  }
  return replayed;
}
