// SWITCHBOARD_CONFIG, kept current: loaded at start (a broken file stops the start with its message),
// reloaded when it changes and on SIGHUP. A broken file on reload is reported and changes nothing: the
// configuration in force stays until a good one replaces it.
//
// Why the directory is watched, not the file: editors save by writing a new file and renaming it over the
// old one, and Kubernetes swaps a ConfigMap by repointing a `..data` symlink; a watch on the file itself
// follows the old inode and goes deaf after the first save. Events only say "something happened to a
// name", so each debounced event reads the file and compares its text with what was last loaded.
import { watch, realpathSync, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ConfigFileError } from './config-file-error';
import type { RoutingFile } from './config-schema';
import { parseConfigText, readConfigText } from './load-config-file';

export interface ConfigWatcherOptions {
  /** Quiet time after the last event before reading: saves come as several events. Default 100 ms. */
  debounceMs?: number;
  /** Provider ids the file may name besides its own, asked at every load (see LoadConfigOptions). */
  knownProviders?: () => Iterable<string>;
}

type OnChange = (file: RoutingFile) => void;
type OnError = (err: ConfigFileError) => void;

interface DirectoryWatch {
  watcher: FSWatcher;
  /** Names in the directory whose events matter (the file, or a symlink's target). */
  names: Set<string>;
}

export class ConfigWatcher {
  /** As given: messages name the file the way the operator wrote it. */
  readonly path: string;
  private readonly absolutePath: string;
  private readonly debounceMs: number;
  private readonly knownProviders?: () => Iterable<string>;
  private readonly watches = new Map<string, DirectoryWatch>();
  private onChange: OnChange = () => {};
  private onError: OnError = () => {};
  private timer: NodeJS.Timeout | undefined;
  /** The text last read (loaded or refused); null while the file could not be read. */
  private lastText: string | null = null;
  private state: 'new' | 'started' | 'closed' = 'new';
  private readonly onSignal = () => this.reload();

  constructor(path: string, options: ConfigWatcherOptions = {}) {
    this.path = path;
    this.absolutePath = resolve(path);
    this.debounceMs = options.debounceMs ?? 100;
    this.knownProviders = options.knownProviders;
  }

  /**
   * Loads the file and returns it; throws its ConfigFileError if it is broken (and then watches nothing).
   * From then on each change that loads is handed to `onChange`, each that does not to `onError` (the
   * initial load goes to neither).
   */
  start(onChange: OnChange, onError: OnError): RoutingFile {
    if (this.state !== 'new') throw new Error('ConfigWatcher: start() may be called once');
    this.onChange = onChange;
    this.onError = onError;
    let file: RoutingFile;
    try {
      // Watch before reading, so a save between the read and the watch is not lost (its check compares texts).
      try {
        this.watchDirectory(dirname(this.absolutePath), basename(this.absolutePath));
      } catch (err) {
        readConfigText(this.path); // a missing directory: say so as for a missing file
        throw asConfigFileError(this.path, err, 'cannot watch its directory: ');
      }
      const text = readConfigText(this.path);
      file = parseConfigText(text, this.path, { knownProviders: this.knownProviders?.() });
      this.lastText = text;
    } catch (err) {
      this.close();
      throw err;
    }
    this.state = 'started';
    this.followSymlink();
    process.on('SIGHUP', this.onSignal);
    return file;
  }

  /** Reads and applies the file now, even if its text did not change (SIGHUP does this). */
  reload(): void {
    if (this.state !== 'started') return;
    clearTimeout(this.timer);
    this.check(true);
  }

  close(): void {
    this.state = 'closed';
    clearTimeout(this.timer);
    process.off('SIGHUP', this.onSignal);
    for (const { watcher } of this.watches.values()) watcher.close();
    this.watches.clear();
  }

  private check(force: boolean): void {
    if (this.state !== 'started') return;
    let text: string;
    try {
      text = readConfigText(this.path);
    } catch (err) {
      // Reported once per disappearance; a save's rename is over before the debounce lets us look.
      if (this.lastText === null && !force) return;
      this.lastText = null;
      this.onError(err as ConfigFileError);
      return;
    }
    if (text === this.lastText && !force) return;
    this.lastText = text;
    let file: RoutingFile;
    try {
      file = parseConfigText(text, this.path, { knownProviders: this.knownProviders?.() });
    } catch (err) {
      this.onError(asConfigFileError(this.path, err, ''));
      return;
    }
    try {
      this.onChange(file);
    } catch (err) {
      this.onError(asConfigFileError(this.path, err, 'the configuration was read but could not be applied: '));
      return;
    }
    this.followSymlink();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(false), this.debounceMs);
    this.timer.unref();
  }

  private watchDirectory(dir: string, name: string): void {
    const existing = this.watches.get(dir);
    if (existing) {
      existing.names.add(name);
      return;
    }
    const names = new Set([name]);
    // Not persistent: the server's listener keeps the process alive, a watcher alone must not.
    const watcher = watch(dir, { persistent: false }, (_event, changed) => {
      // `..data` and its timestamped siblings: Kubernetes' atomic ConfigMap update (no event names the file).
      if (changed === null || names.has(changed) || changed.startsWith('..')) this.schedule();
    });
    watcher.on('error', (err) => {
      watcher.close();
      this.watches.delete(dir);
      // A symlink target's directory may vanish (Kubernetes deletes the old one); the file's own may not.
      if (dir === dirname(this.absolutePath) && this.state === 'started') {
        this.onError(new ConfigFileError(this.path, [{ field: '', message: `no longer watching its directory (${err.message}); send SIGHUP to reload` }]));
      } else this.schedule();
    });
    this.watches.set(dir, { watcher, names });
  }

  /**
   * A file that is a symlink into another directory (a dotfiles repository, a mounted volume) changes
   * there: watch the target's directory too, and forget the previous target's once it is no longer followed.
   */
  private followSymlink(): void {
    const home = dirname(this.absolutePath);
    let target: string;
    try {
      target = realpathSync(this.absolutePath);
    } catch {
      return;
    }
    for (const [dir, w] of this.watches) {
      if (dir === home) continue;
      if (dir !== dirname(target)) {
        w.watcher.close();
        this.watches.delete(dir);
      }
    }
    if (target !== this.absolutePath) this.watchDirectory(dirname(target), basename(target));
  }
}

function asConfigFileError(path: string, err: unknown, prefix: string): ConfigFileError {
  if (err instanceof ConfigFileError && !prefix) return err;
  return new ConfigFileError(path, [{ field: '', message: `${prefix}${(err as Error)?.message ?? String(err)}` }]);
}
