// The documented list of actions (README, OpenAPI) and the code agree: every `<object>.<verb>` literal in a file
// that records audit entries is listed, and every listed action is recorded somewhere.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@/server/webhooks/webhook-events';
import { AUDIT_ACTIONS } from './audit-actions';

/** Webhook event types (key.created, member.joined…) share the `<object>.<verb>` shape: not audit actions. */
const EVENT_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

const SERVER = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'generated' ? [] : sourceFiles(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

/** Files that write audit entries, with the action literals they hold. */
function recordedActions(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of sourceFiles(SERVER)) {
    if (file.endsWith(path.join('audit', 'audit-actions.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    if (!/recordAudit\(|recordPaymentAudit\(|auditAction/.test(text)) continue;
    const literals = [...text.matchAll(/'([a-z][a-z_]*\.[a-z][a-z_]*)'/g)].map((m) => m[1]).filter((a) => a in AUDIT_ACTIONS || !EVENT_TYPES.has(a));
    out.set(path.relative(SERVER, file), literals);
  }
  return out;
}

describe('audit actions', () => {
  const recorded = recordedActions();

  it('finds the services that record entries', () => {
    expect([...recorded.keys()]).toEqual(expect.arrayContaining([path.join('api-keys', 'create-api-key.ts'), path.join('billing', 'sync-subscription.ts'), path.join('invites', 'accept-invite.ts')]));
  });

  it('lists every action the code records', () => {
    const unlisted = [...recorded].flatMap(([file, actions]) => actions.filter((a) => !(a in AUDIT_ACTIONS)).map((a) => `${a} (${file})`));
    expect(unlisted).toEqual([]);
  });

  it('records every listed action somewhere', () => {
    const all = new Set([...recorded.values()].flat());
    expect(Object.keys(AUDIT_ACTIONS).filter((a) => !all.has(a))).toEqual([]);
  });

  it('names actions `<object>.<verb>` in snake case', () => {
    for (const action of Object.keys(AUDIT_ACTIONS)) expect(action).toMatch(/^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$/);
  });
});
