// Shares key health between instances through Redis (REDIS_URL): every state change (a key starts cooling,
// its circuit opens, it recovers) is published on a channel and written to a hash, so the other instances
// apply it within a round trip and an instance that starts later loads the current state. Changes carry
// absolute times (`until`, epoch ms), so a cooldown ends at the same moment everywhere (clock skew aside).
//
// The chat path never waits for Redis: KeyHealth reads only its memory, publishing is fire-and-forget, and
// a change made while Redis is away stays local (other instances learn it from their own failures). Consecutive
// failure counts and half-open probes are per instance: each instance counts its own failures, and once an
// open circuit's time is up each may send one probe (N instances → at most N probes, not one).
import Redis from 'ioredis';
import { z } from 'zod';

/** A shared state change; `healthy` clears the key. */
export interface HealthChange {
  ref: string;
  state: 'healthy' | 'cooling' | 'open';
  /** ms epoch when the cooldown or open circuit ends; null for healthy. */
  until: number | null;
  /** After this cooldown the key gets one probe first (auth failures), not all traffic at once. */
  probeAfter: boolean;
  lastError: string | null;
  /** ms epoch of the change: of two changes to one key racing between instances, the later wins. */
  at: number;
}

const changeSchema = z.object({
  instance: z.string(),
  ref: z.string().min(1).max(300),
  state: z.enum(['healthy', 'cooling', 'open']),
  until: z.number().nullable(),
  probeAfter: z.boolean(),
  lastError: z.string().max(500).nullable(),
  at: z.number(),
});

export interface RedisHealthSyncOptions {
  url: string;
  /** Messages from this instance are not applied again. */
  instanceId: string;
  /** Namespace of the channel and hash; default `switchboard` (tests use their own so parallel runs don't meet). */
  keyPrefix?: string;
  /** Called for every change another instance made (and for the stored state at start and after a reconnect). */
  apply(change: HealthChange): void;
  /** Where the one "Redis unavailable" line goes; default console.error. */
  log?: (message: string) => void;
}

export const DEFAULT_HEALTH_KEY_PREFIX = 'switchboard';
/** No change for a day: every stored state has long expired (the longest cooldown is minutes), drop the hash. */
const HASH_TTL_MS = 86_400_000;

export function healthRedisKeys(prefix = DEFAULT_HEALTH_KEY_PREFIX): { channel: string; hash: string } {
  return { channel: `${prefix}:key-health`, hash: `${prefix}:key-health:state` };
}

function connect(url: string): Redis {
  // No offline queue: a command while disconnected fails at once instead of piling up behind a dead Redis.
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, autoResubscribe: false, connectionName: 'switchboard-key-health' });
}

function parseChange(raw: string): (HealthChange & { instance: string }) | null {
  try {
    const r = changeSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

export class RedisHealthSync {
  /** Settles once subscribed and the stored state is applied, or once Redis has failed (then memory only). Never rejects. */
  readonly ready: Promise<void>;
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly keys: { channel: string; hash: string };
  private loggedFailure = false;
  private closed = false;

  constructor(private readonly options: RedisHealthSyncOptions) {
    this.keys = healthRedisKeys(options.keyPrefix);
    this.commands = connect(options.url);
    this.subscriber = connect(options.url);
    let settle!: () => void;
    this.ready = new Promise<void>((resolve) => (settle = resolve));
    const onError = (err: Error) => {
      this.failed(err);
      settle();
    };
    this.commands.on('error', onError);
    this.subscriber.on('error', onError);
    this.subscriber.on('message', (channel, message) => {
      if (channel === this.keys.channel) this.receive(message);
    });
    // Subscribe first, then load: a change published between the two is received, and applying the stored
    // copy of it as well is harmless (a change older than what a key holds is ignored).
    const subscribed = new Promise<void>((resolve) => this.subscriber.on('ready', () => void this.subscriber.subscribe(this.keys.channel).then(() => resolve(), onError)));
    // Runs again after each reconnect: whatever changed while this instance was cut off is in the hash.
    this.commands.on('ready', () => void subscribed.then(() => this.load()).then(settle, onError));
  }

  /** Sends a change to the other instances and stores it for later ones; returns at once, errors are ignored. */
  publish(change: HealthChange): void {
    if (this.closed || this.commands.status !== 'ready') return;
    const message = JSON.stringify({ instance: this.options.instanceId, ...change });
    const tx = this.commands.multi().publish(this.keys.channel, message);
    if (change.state === 'healthy') tx.hdel(this.keys.hash, change.ref);
    else tx.hset(this.keys.hash, change.ref, message).pexpire(this.keys.hash, HASH_TTL_MS);
    tx.exec().catch((err: Error) => this.failed(err));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.commands, this.subscriber].map((r) => r.quit().then(() => undefined, () => r.disconnect())));
  }

  private async load(): Promise<void> {
    const stored = await this.commands.hgetall(this.keys.hash);
    for (const raw of Object.values(stored)) {
      const change = parseChange(raw);
      // Our own entries are applied too: they may come from this process before a reconnect (harmless) or
      // from a predecessor with another instance id.
      if (change) this.options.apply(change);
    }
  }

  private receive(raw: string): void {
    const change = parseChange(raw);
    if (change && change.instance !== this.options.instanceId) this.options.apply(change);
  }

  private failed(err: Error): void {
    if (this.loggedFailure || this.closed) return;
    this.loggedFailure = true;
    // The message names the host and error, never the URL (it may hold a password).
    (this.options.log ?? console.error)(`key health: Redis is unavailable (${err.message}); health is kept in this instance's memory until it answers`);
  }
}

/** The stored state as other instances left it (the CLI when no server runs); expired entries included. */
export async function readStoredHealth(url: string, keyPrefix?: string): Promise<HealthChange[]> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true, connectTimeout: 3_000, retryStrategy: () => null });
  let cause: Error | null = null;
  redis.on('error', (err: Error) => (cause = err)); // says more than the "Connection is closed" that connect rejects with
  try {
    const stored = await redis
      .connect()
      .then(() => redis.hgetall(healthRedisKeys(keyPrefix).hash))
      .catch((err: Error) => {
        throw new Error(`Redis does not answer (${(cause ?? err).message})`);
      });
    return Object.values(stored)
      .map(parseChange)
      .filter((c): c is HealthChange & { instance: string } => c !== null)
      .map(({ instance: _instance, ...change }) => change)
      .sort((a, b) => a.ref.localeCompare(b.ref));
  } finally {
    redis.disconnect();
  }
}
