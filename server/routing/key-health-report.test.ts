import { describe, expect, it } from 'vitest';
import { KeyHealth } from './key-health';
import { formatKeyHealthReport, reportKeyHealth, reportStoredHealth } from './key-health-report';
import type { RoutingKey, RoutingProvider, RoutingTable } from './routing-table';

const NOW = Date.parse('2026-01-01T12:00:00Z');

function provider(id: string, keyIds: string[], extra: Partial<RoutingProvider> = {}): RoutingProvider {
  const keys: RoutingKey[] = keyIds.map((k, i) => ({ id: k, ref: `${id}/${k}`, apiKey: 'sk-secret', weight: i + 1 }));
  return { id, type: 'openai', name: id, adapter: {} as RoutingProvider['adapter'], baseUrl: 'https://x', headers: {}, keys, configured: true, enabled: true, source: 'file', ...extra };
}

function table(providers: RoutingProvider[]): RoutingTable {
  return { models: new Map(), list: [], providers: new Map(providers.map((p) => [p.id, p])), warnings: [] };
}

describe('upstream:health report', () => {
  it("lists every key of the server's table with its state, time left, failures and last error", () => {
    const health = new KeyHealth({ now: () => NOW, failureThreshold: 2, openMs: 90_000 });
    health.rateLimited('openai-a/k1', 23);
    health.failed('openai-a/k2', '503: overloaded');
    health.failed('openai-a/k2', 'timeout');
    health.failed('openai-b/main', '500');
    health.authFailed('gone/old', 401); // a key no longer in the configuration
    const report = reportKeyHealth(
      table([provider('openai-b', ['main']), provider('openai-a', ['k1', 'k2', 'k3']), provider('echo', [], { type: 'echo' }), provider('anthropic', [], { type: 'anthropic', configured: false, missing: 'ANTHROPIC_API_KEY is not set' })]),
      health,
      NOW,
    );
    expect(report.source).toBe('server');
    expect(report.providers.map((p) => p.id)).toEqual(['anthropic', 'echo', 'openai-a', 'openai-b', 'gone']);
    expect(report.providers[2].keys).toEqual([
      { id: 'k1', ref: 'openai-a/k1', weight: 1, state: 'cooling', until: '2026-01-01T12:00:23.000Z', seconds_left: 23, consecutive_failures: 0, last_error: '429 (Retry-After 23 s)' },
      { id: 'k2', ref: 'openai-a/k2', weight: 2, state: 'open', until: '2026-01-01T12:01:30.000Z', seconds_left: 90, consecutive_failures: 2, last_error: 'timeout' },
      { id: 'k3', ref: 'openai-a/k3', weight: 3, state: 'healthy', until: null, seconds_left: null, consecutive_failures: 0, last_error: null },
    ]);
    expect(JSON.stringify(report)).not.toContain('sk-secret');

    const text = formatKeyHealthReport(report);
    expect(text).toContain('anthropic (anthropic, not configured: ANTHROPIC_API_KEY is not set)');
    expect(text).toContain('echo (echo)\n  no keys (nothing to track)');
    expect(text).toMatch(/openai-a \(openai\)\n {2}KEY +STATE +FAILURES +LAST ERROR\n {2}k1 +cooling 23 s +0 +429 \(Retry-After 23 s\)\n {2}k2 +open 1 min 30 s +2 +timeout\n {2}k3 +healthy +0 +-/);
    expect(text).toMatch(/openai-b \(openai\)\n.*\n {2}main +healthy +1 +500/);
    expect(text).toMatch(/gone \(not in this configuration\)\n.*\n {2}old +cooling 5 min +0 +401 \(key refused\)/);
  });

  it('from Redis (no server): applies the transitions that time made, failure counts unknown', () => {
    const report = reportStoredHealth(
      [
        { ref: 'p/cool', state: 'cooling', until: NOW + 5_000, probeAfter: false, lastError: '429', at: NOW - 1_000 },
        { ref: 'p/cooled', state: 'cooling', until: NOW - 1, probeAfter: false, lastError: '429', at: NOW - 60_000 },
        { ref: 'p/revoked', state: 'cooling', until: NOW - 1, probeAfter: true, lastError: '401 (key refused)', at: NOW - 400_000 },
        { ref: 'q/down', state: 'open', until: NOW - 1, probeAfter: false, lastError: '503', at: NOW - 60_000 },
      ],
      NOW,
    );
    expect(report.source).toBe('redis');
    expect(report.providers.map((p) => [p.id, p.keys.map((k) => [k.id, k.state, k.seconds_left, k.consecutive_failures])])).toEqual([
      ['p', [['cool', 'cooling', 5, null], ['cooled', 'healthy', null, null], ['revoked', 'half_open', null, null]]],
      ['q', [['down', 'half_open', null, null]]],
    ]);
    const text = formatKeyHealthReport(report);
    expect(text).toMatch(/^No Switchboard server is running here/);
    expect(text).toMatch(/ {2}cool +cooling 5 s +- +429/);
    expect(text).toMatch(/ {2}down +half-open \(next request probes\) +- +503/);
    expect(formatKeyHealthReport(reportStoredHealth([], NOW))).toContain('Every key is healthy.');
  });
});
