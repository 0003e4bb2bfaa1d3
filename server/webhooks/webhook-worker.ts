// The background worker that turns account events into webhook deliveries and alert emails, started by the
// server process (server/main.ts) and stopped at shutdown. Each tick: fan out new events, send the webhook
// deliveries and alert emails that are due; every ALERT_CHECK_INTERVAL_MS, look for balance.low and
// limit.threshold crossings; once an hour, drop events older than 30 days (their deliveries are long
// finished: the retry schedule spans about a day). Every step claims its rows with FOR UPDATE SKIP LOCKED or
// an advisory lock, so any number of instances can run it on the same database.
// Nothing here runs on the chat path: crossings are found from what settlement already wrote.
import { db } from '@/server/db';
import { env } from '@/server/env';
import { checkAlertCrossings } from './check-alert-crossings';
import { webhookAgent } from './deliver-webhook';
import { deliverDueWebhooks, STANDARD_RETRY_DELAYS_MS } from './deliver-due-webhooks';
import { dispatchAccountEvents } from './dispatch-account-events';
import { sendDueAlertEmails } from './send-alert-emails';

const EVENT_RETENTION_MS = 30 * 86_400_000;
const CLEANUP_INTERVAL_MS = 3_600_000;

export interface WebhookWorkerOptions {
  /** How often events are fanned out and due deliveries sent (default 1 s). */
  pollIntervalMs?: number;
  /** How often crossings are checked (default ALERT_CHECK_INTERVAL_MS). */
  alertCheckIntervalMs?: number;
  /** Delays after each failed attempt (default: the Standard Webhooks schedule). */
  retryDelaysMs?: readonly number[];
  /** Private addresses reachable (default WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate?: boolean;
}

export interface WebhookWorker {
  /** One full round now (fan-out, a crossing check, deliveries, emails); resolves when it is done. */
  runOnce(): Promise<void>;
  /** Stops the timers and waits for the round in progress. */
  stop(): Promise<void>;
}

export function startWebhookWorker(options: WebhookWorkerOptions = {}): WebhookWorker {
  const e = env();
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const alertCheckIntervalMs = options.alertCheckIntervalMs ?? e.ALERT_CHECK_INTERVAL_MS;
  const retryDelaysMs = options.retryDelaysMs ?? STANDARD_RETRY_DELAYS_MS;
  const allowPrivate = options.allowPrivate ?? e.WEBHOOK_ALLOW_PRIVATE;
  const agent = webhookAgent(allowPrivate);
  let stopped = false;
  let running: Promise<void> | null = null;
  let lastCheck = 0;
  let lastCleanup = Date.now();
  let failures = 0;

  const step = async (name: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      // A database that is briefly unreachable must not stop the worker; log now and then.
      if (failures++ % 20 === 0) console.error(`webhook worker: ${name} failed (${failures}×), will retry:`, (err as Error).message);
    }
  };

  const round = async (forceCheck: boolean) => {
    if (forceCheck || Date.now() - lastCheck >= alertCheckIntervalMs) {
      lastCheck = Date.now();
      await step('alert check', () => checkAlertCrossings());
    }
    // Fan out everything pending (events may arrive faster than one batch per tick).
    await step('fan-out', async () => {
      while ((await dispatchAccountEvents()) > 0 && !stopped);
    });
    await Promise.all([step('deliveries', () => deliverDueWebhooks({ agent, allowPrivate, retryDelaysMs })), step('alert emails', () => sendDueAlertEmails({ retryDelaysMs }))]);
    if (Date.now() - lastCleanup >= CLEANUP_INTERVAL_MS) {
      lastCleanup = Date.now();
      await step('cleanup', async () => (await db()).accountEvent.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - EVENT_RETENTION_MS) } } }));
    }
  };

  const run = (forceCheck: boolean): Promise<void> => {
    running ??= round(forceCheck).finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (!stopped && !running) void run(false);
  }, pollIntervalMs);
  timer.unref?.();

  return {
    async runOnce() {
      if (running) await running;
      await run(true);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
      await agent.close().catch(() => {});
    },
  };
}
