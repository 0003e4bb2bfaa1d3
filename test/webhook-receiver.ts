// Test support: an HTTP endpoint that receives webhooks and verifies each with the `standardwebhooks`
// library's Webhook.verify, as a customer's receiver would. Each path is one receiver: register its secret
// (from the creation answer) and, optionally, the statuses to answer in turn (default 204).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed payload when the signature verified; null when it did not (see error). */
  payload: { id: string; type: string; timestamp: string; account_id: string; data: any } | null;
  error: string | null;
  /** The status this request was answered with. */
  status: number;
}

export interface WebhookReceiver {
  origin: string;
  /** Every request, in order of arrival. */
  received: ReceivedWebhook[];
  /** A new path to point a webhook at. */
  path(label: string): string;
  setSecret(path: string, secret: string): void;
  /** Statuses to answer on `path`, one per request; after the list, 204. */
  answer(path: string, statuses: number[]): void;
  /** Verified payloads received on `path`. */
  on(path: string): NonNullable<ReceivedWebhook['payload']>[];
  /** Resolves when `predicate` holds of what was received (checked on each arrival), or rejects after timeoutMs. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const secrets = new Map<string, string>();
  const scripts = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      let payload: ReceivedWebhook['payload'] = null;
      let error: string | null = null;
      const secret = secrets.get(path);
      try {
        if (!secret) throw new Error('no secret registered for this path');
        payload = new Webhook(secret).verify(body, headers) as ReceivedWebhook['payload'];
      } catch (err) {
        error = (err as Error).message;
      }
      const status = scripts.get(path)?.shift() ?? 204;
      received.push({ path, headers, body, payload, error, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `receiver says ${status}` : '');
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    path: (label) => `/hooks/${label}-${++n}`,
    setSecret: (path, secret) => void secrets.set(path, secret),
    answer: (path, statuses) => void scripts.set(path, [...statuses]),
    on: (path) => received.filter((r) => r.path === path && r.payload).map((r) => r.payload!),
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`webhook receiver: condition not met within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
