// `npm run bench`'s measure of what choosing an endpoint costs (issue 13: ≤ 50 µs of CPU per request): the
// routing table of the bench's routing leg (two endpoints × two keys) plus the built-in catalog, then, per
// request, what admission and open-route do to choose — planRoute (resolve, filters, order, health) and
// orderKeys with and without affinity, acquire and succeeded — timed over many iterations after a warm-up.
// Prints one JSON line: { "usPerChoice": …, "usPerChoiceWithAffinity": … }.
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from '@/server/routing/build-routing-table';
import { routingFileSchema } from '@/server/routing/config-schema';
import { KeyHealth } from '@/server/routing/key-health';
import { orderKeys } from '@/server/routing/order-keys';
import { planRoute } from '@/server/routing/plan-route';

const provider = (id: string) => ({ id, type: 'openai-compatible' as const, base_url: 'http://127.0.0.1:9/v1', keys: [{ key: `sk-${id}-1`, weight: 1 }, { key: `sk-${id}-2`, weight: 3 }] });
const endpoint = (p: string) => ({ provider: p, upstream_model: 'gpt-4o-mini', pricing: { input: 0.15, output: 0.6 } });
const file = routingFileSchema.parse({
  providers: [provider('mock-a'), provider('mock-b')],
  models: [{ id: 'bench/pooled', name: 'Bench', context_length: 128000, max_output_tokens: 16384, endpoints: [endpoint('mock-a'), endpoint('mock-b')] }],
});
const table = buildRoutingTable({ env: parseEnv({ DATA_DIR: '/tmp/sb-route-choice' }), file });
const health = new KeyHealth();
const options = { keyUsable: (ref: string) => health.isUsable(ref), nextAvailableAt: (refs: string[]) => health.nextAvailableAt(refs) };
const request = { model: 'bench/pooled', provider: { sort: 'price' as const } };

function choose(affinity?: string): void {
  const plan = planRoute(table, request, options);
  const keys = orderKeys(plan.candidates[0]!.endpoint.provider.keys, options.keyUsable, affinity);
  if (!health.acquire(keys[0]!.ref)) throw new Error('no key');
  health.succeeded(keys[0]!.ref);
}

function time(n: number, affinity: (i: number) => string | undefined): number {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) choose(affinity(i));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

time(50_000, () => undefined); // warm-up: JIT
time(50_000, (i) => `task-${i % 100}`);
const usPerChoice = time(200_000, () => undefined);
const usPerChoiceWithAffinity = time(200_000, (i) => `task-${i % 100}`);
console.log(JSON.stringify({ usPerChoice, usPerChoiceWithAffinity }));
void health.close();
