// WORKERS=N's primary (cluster-primary.ts) with the host-wide /metrics (observability/cluster-metrics.ts),
// driven through test/cluster-fixture.ts: two workers share the port; one scrape sums both workers' series
// (gauges by their aggregator), and a worker still starting does not hold a scrape up; a worker that dies is replaced; SIGTERM reaches the workers and the primary
// exits 0 once they have; a worker that cannot start stops the primary with 1.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function startPrimary(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test', 'cluster-fixture.ts')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

const get = async (port: number, p: string) => (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { connection: 'close' } })).text();
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('WORKERS=N: the cluster primary', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it('serves one port with N workers, one scrape sums them all, a dead worker is replaced, SIGTERM exits 0', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const p = startPrimary({ WORKERS: '2', PORT: String(port), CLUSTER_FIXTURE_START_MS: '3000' });
    children.push(p.child);
    await expect.poll(() => get(port, '/metrics').then((t) => sample(t, 'switchboard_workers'), () => undefined), { timeout: 60_000, interval: 250 }).toBe(2);

    const text = await get(port, '/metrics');
    expect(sample(text, 'switchboard_requests_total{model="m",provider="p",status="200"}')).toBe(2);
    expect(sample(text, 'switchboard_tokens_total{model="m",type="prompt"}')).toBe(10);
    expect(sample(text, 'switchboard_request_duration_seconds_count{model="m",provider="p",stream="false"}')).toBe(2);
    expect(sample(text, 'switchboard_settlement_queue_depth')).toBe(6);
    expect(sample(text, 'switchboard_upstream_key_healthy{provider="openai",key="main"}')).toBe(0); // worker 2 has it cooling: min

    const pids = new Set<string>();
    for (let i = 0; i < 10 && pids.size < 2; i++) pids.add(await get(port, '/pid'));
    expect(pids.size).toBe(2); // connections go to both workers
    const victim = [...pids][0];
    process.kill(Number(victim), 'SIGKILL');
    await expect.poll(() => p.output(), { timeout: 30_000 }).toMatch(new RegExp(`pid ${victim}\\) exited \\(signal SIGKILL\\); starting another`));
    // While its replacement starts (3 s here), scrapes are answered at once by the worker that is up.
    const scrapeStarted = Date.now();
    const during = await get(port, '/metrics');
    expect(Date.now() - scrapeStarted).toBeLessThan(2_000);
    expect(sample(during, 'switchboard_workers')).toBe(1);
    expect(sample(during, 'switchboard_requests_total{model="m",provider="p",status="200"}')).toBe(1);
    await expect
      .poll(
        async () => {
          const t = await get(port, '/metrics').catch(() => '');
          return sample(t, 'switchboard_workers');
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(2);
    const after = new Set<string>();
    for (let i = 0; i < 10 && after.size < 2; i++) after.add(await get(port, '/pid'));
    expect(after.has(victim)).toBe(false);
    expect(after.size).toBe(2);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    for (const pid of after) expect(() => process.kill(Number(pid), 0)).toThrow(); // the workers are gone too
  });

  it('a worker that cannot start stops the primary with exit code 1', { timeout: 60_000 }, async () => {
    const p = startPrimary({ WORKERS: '3', PORT: String(await freePort()), CLUSTER_FIXTURE_FAIL: '1' });
    children.push(p.child);
    expect(await p.exited).toBe(1);
    expect(p.output()).toMatch(/worker 1 \(pid \d+\) exited \(code 1\) before the server started; stopping/);
  });
});
