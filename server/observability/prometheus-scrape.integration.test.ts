// A real Prometheus (Debian's `prometheus` package; .ci/run installs it) scrapes GET /metrics with the
// bearer token every second, and a PromQL query returns the requests made. Reported as skipped where the
// binary is absent.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const PROMETHEUS = '/usr/bin/prometheus';
const hasPrometheus = existsSync(PROMETHEUS);
const TOKEN = 'prometheus-scrape-token';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

describeEachDatabase('Prometheus scrapes /metrics', () => {
  let h: GatewayHarness;
  let prometheus: ChildProcess | undefined;
  let dir: string;
  let api: string;
  let output = '';

  beforeAll(async () => {
    if (!hasPrometheus) return;
    process.env.METRICS_TOKEN = TOKEN;
    resetEnvCache();
    h = await startGatewayHarness();
    dir = mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
    const target = new URL(h.origin).host;
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        '  - job_name: switchboard',
        '    metrics_path: /metrics',
        `    authorization: { type: Bearer, credentials: ${TOKEN} }`,
        `    static_configs: [{ targets: ['${target}'] }]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}/api/v1`;
    prometheus = spawn(PROMETHEUS, [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    prometheus.stdout!.on('data', (d) => (output += d));
    prometheus.stderr!.on('data', (d) => (output += d));
  }, 60_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((r) => prometheus!.once('exit', r));
      prometheus.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    delete process.env.METRICS_TOKEN;
    resetEnvCache();
    await h?.close();
  });

  it.skipIf(!hasPrometheus)(`scrapes with the token and answers PromQL with the requests made (needs ${PROMETHEUS}: apt-get install prometheus)`, async () => {
    const up = await until('the target to be up', async () => {
      const body = await (await fetch(`${api}/targets`)).json();
      const t = body.data.activeTargets.find((x: { labels: { job: string } }) => x.labels.job === 'switchboard');
      if (t?.lastError) output += `\nlast scrape error: ${t.lastError}`;
      return t?.health === 'up' ? t : undefined;
    }).catch((err) => {
      throw new Error(`${(err as Error).message}\nprometheus output:\n${output.slice(-2000)}`);
    });
    expect(up.scrapeUrl).toBe(`${h.origin}/metrics`);

    const u = await fundedUser(10);
    const chat = (body: Record<string, unknown>, key = u.key) =>
      fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    const echo = { model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'hello prometheus' }] };
    for (let i = 0; i < 5; i++) expect((await chat(echo)).status).toBe(200);
    expect((await chat({ ...echo, stream: true })).status).toBe(200);
    expect((await chat(echo, 'sk-sb-v1-' + 'p'.repeat(40))).status).toBe(401);
    expect((await chat(echo, 'sk-sb-v1-' + 'q'.repeat(40))).status).toBe(401);

    type Series = { metric: Record<string, string>; value: [number, string] };
    const query = async (q: string): Promise<Series[]> => {
      const body = await (await fetch(`${api}/query?query=${encodeURIComponent(q)}`)).json();
      expect(body.status).toBe('success');
      return body.data.result as Series[];
    };
    // Prometheus drops empty labels: the refusals' series have no model or provider.
    // Wait for a scrape after all the requests: the 200s reach 6 (the stream's settlement included) and the 401s 2
    // (a scrape can fall between the stream's settlement and the refusals that follow it).
    const series = await until('a scrape with the requests', async () => {
      const result = await query('switchboard_requests_total');
      const ok = result.find((s) => s.metric.model === 'switchboard/echo' && s.metric.status === '200');
      const refused = result.find((s) => s.metric.status === '401');
      return ok?.value[1] === '6' && refused?.value[1] === '2' ? result : undefined;
    });
    const byStatus = Object.fromEntries(series.map((s) => [`${s.metric.model ?? ''}|${s.metric.provider ?? ''}|${s.metric.status}`, Number(s.value[1])]));
    expect(byStatus).toEqual({ 'switchboard/echo|echo|200': 6, '||401': 2 });
    for (const s of series) expect(s.metric).toMatchObject({ job: 'switchboard', instance: new URL(h.origin).host, __name__: 'switchboard_requests_total' });

    const streamed = await query('sum(switchboard_request_duration_seconds_count{stream="true"})');
    expect(streamed[0]!.value[1]).toBe('1');
    const tokens = await query('switchboard_tokens_total{type="prompt"}');
    expect(Number(tokens[0]!.value[1])).toBeGreaterThan(0);
  }, 90_000);
});
