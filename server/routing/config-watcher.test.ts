// Real files, real fs.watch: every assertion waits for the watcher's own callback (a deadline only turns a
// missing event into a failure), never for a fixed time.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigFileError } from './config-file-error';
import type { RoutingFile } from './config-schema';
import { ConfigWatcher } from './config-watcher';

const config = (modelId: string) => `models:
  - id: ${modelId}
    name: Test
    context_length: 1000
    max_output_tokens: 100
    endpoints:
      - provider: echo
        upstream_model: echo
        pricing: { input: 1, output: 1 }
`;

/** Records what a watcher reports and lets a test wait for the next report. */
function recorder() {
  const changes: string[] = [];
  const errors: ConfigFileError[] = [];
  let wake: (() => void)[] = [];
  const notify = () => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };
  const record = (file: RoutingFile) => changes.push(file.models.map((m) => m.id).join(','));
  return {
    changes,
    errors,
    /** The file start() returned, recorded as the first configuration seen. */
    started: record,
    onChange: (file: RoutingFile) => {
      record(file);
      notify();
    },
    onError: (err: ConfigFileError) => {
      errors.push(err);
      notify();
    },
    async until(condition: () => boolean, what: string, deadlineMs = 5_000): Promise<void> {
      const deadline = Date.now() + deadlineMs;
      while (!condition()) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${what}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

let dir: string;
let file: string;
const open: ConfigWatcher[] = [];
function watcher(target = file, debounceMs = 20): ConfigWatcher {
  const w = new ConfigWatcher(target, { debounceMs });
  open.push(w);
  return w;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-watch-'));
  file = path.join(dir, 'switchboard.yaml');
  writeFileSync(file, config('acme/v1'));
});
afterEach(() => {
  for (const w of open.splice(0)) w.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ConfigWatcher', () => {
  it('loads at start and returns the file (reloads go to onChange)', () => {
    const r = recorder();
    expect(watcher().start(r.onChange, r.onError).models.map((m) => m.id)).toEqual(['acme/v1']);
    expect(r.changes).toEqual([]);
  });

  it('refuses to start on a broken file, with its line and field, and leaves nothing behind', () => {
    writeFileSync(file, config('acme/v1').replace('input: 1', 'input: -1'));
    const signals = process.listenerCount('SIGHUP');
    const r = recorder();
    expect(() => watcher().start(r.onChange, r.onError)).toThrow(`${file}:9:27: models[0].endpoints[0].pricing.input: a price cannot be negative`);
    expect(r.changes).toEqual([]);
    expect(process.listenerCount('SIGHUP')).toBe(signals);
  });

  it('sees a file written in place', async () => {
    const r = recorder();
    r.started(watcher().start(r.onChange, r.onError));
    writeFileSync(file, config('acme/v2'));
    await r.until(() => r.changes.length === 2, 'the change');
    expect(r.changes).toEqual(['acme/v1', 'acme/v2']);
    expect(r.errors).toEqual([]);
  });

  it("sees an editor's save: a new file renamed over the old one", async () => {
    const r = recorder();
    r.started(watcher().start(r.onChange, r.onError));
    writeFileSync(path.join(dir, '.switchboard.yaml.swp'), config('acme/v2'));
    renameSync(path.join(dir, '.switchboard.yaml.swp'), file);
    await r.until(() => r.changes.length === 2, 'the change');
    expect(r.changes.at(-1)).toBe('acme/v2');
    // The watch survives the inode swap: a second save is seen too.
    writeFileSync(path.join(dir, 'tmp'), config('acme/v3'));
    renameSync(path.join(dir, 'tmp'), file);
    await r.until(() => r.changes.length === 3, 'the second change');
    expect(r.changes.at(-1)).toBe('acme/v3');
  });

  it('reports a broken write and keeps the configuration in force until a good one comes', async () => {
    const r = recorder();
    r.started(watcher().start(r.onChange, r.onError));
    writeFileSync(file, config('acme/v2').replace('context_length: 1000', 'context_length: -5'));
    await r.until(() => r.errors.length === 1, 'the error');
    expect(r.errors[0]!.message).toMatch(/switchboard\.yaml:4:21: models\[0\]\.context_length: /);
    expect(r.changes).toEqual(['acme/v1']);
    writeFileSync(file, config('acme/v3'));
    await r.until(() => r.changes.length === 2, 'the repaired file');
    expect(r.changes).toEqual(['acme/v1', 'acme/v3']);
    expect(r.errors).toHaveLength(1);
  });

  it('reloads on SIGHUP even when nothing changed', async () => {
    const r = recorder();
    r.started(watcher().start(r.onChange, r.onError));
    process.kill(process.pid, 'SIGHUP');
    await r.until(() => r.changes.length === 2, 'the reload');
    expect(r.changes).toEqual(['acme/v1', 'acme/v1']);
  });

  it('follows a Kubernetes ConfigMap update (the ..data symlink is swapped; no event names the file)', async () => {
    const mounted = mkdtempSync(path.join(dir, 'mount-'));
    mkdirSync(path.join(mounted, '..v1'));
    writeFileSync(path.join(mounted, '..v1', 'switchboard.yaml'), config('acme/k1'));
    symlinkSync('..v1', path.join(mounted, '..data'));
    symlinkSync('..data/switchboard.yaml', path.join(mounted, 'switchboard.yaml'));
    const r = recorder();
    r.started(watcher(path.join(mounted, 'switchboard.yaml')).start(r.onChange, r.onError));

    mkdirSync(path.join(mounted, '..v2'));
    writeFileSync(path.join(mounted, '..v2', 'switchboard.yaml'), config('acme/k2'));
    symlinkSync('..v2', path.join(mounted, '..data_tmp'));
    renameSync(path.join(mounted, '..data_tmp'), path.join(mounted, '..data'));
    await r.until(() => r.changes.length === 2, 'the swapped ConfigMap');
    expect(r.changes).toEqual(['acme/k1', 'acme/k2']);
    expect(r.errors).toEqual([]);
    // The kubelet then deletes the old version, and later swaps again: still followed.
    rmSync(path.join(mounted, '..v1'), { recursive: true });
    mkdirSync(path.join(mounted, '..v3'));
    writeFileSync(path.join(mounted, '..v3', 'switchboard.yaml'), config('acme/k3'));
    symlinkSync('..v3', path.join(mounted, '..data_tmp'));
    renameSync(path.join(mounted, '..data_tmp'), path.join(mounted, '..data'));
    await r.until(() => r.changes.length === 3, 'the second swap');
    expect(r.changes).toEqual(['acme/k1', 'acme/k2', 'acme/k3']);
  });

  it('follows a symlink into another directory and sees its target edited there', async () => {
    const elsewhere = mkdtempSync(path.join(dir, 'repo-'));
    const target = path.join(elsewhere, 'real.yaml');
    writeFileSync(target, config('acme/s1'));
    const link = path.join(dir, 'linked.yaml');
    symlinkSync(target, link);
    const r = recorder();
    r.started(watcher(link).start(r.onChange, r.onError));
    writeFileSync(target, config('acme/s2'));
    await r.until(() => r.changes.length === 2, 'the edited target');
    expect(r.changes).toEqual(['acme/s1', 'acme/s2']);
  });

  it('after close, neither file changes nor SIGHUP reach it', async () => {
    const signals = process.listenerCount('SIGHUP');
    const closed = recorder();
    const w = watcher(file, 5);
    closed.started(w.start(closed.onChange, closed.onError));
    expect(process.listenerCount('SIGHUP')).toBe(signals + 1);
    w.close();
    expect(process.listenerCount('SIGHUP')).toBe(signals);

    // A control watcher with a longer debounce: once it has seen the change, the closed one (5 ms) would have too.
    const control = recorder();
    control.started(watcher(file, 150).start(control.onChange, control.onError));
    writeFileSync(file, config('acme/v2'));
    await control.until(() => control.changes.length === 2, 'the control watcher');
    expect(closed.changes).toEqual(['acme/v1']);
    expect(closed.errors).toEqual([]);
  });
});
