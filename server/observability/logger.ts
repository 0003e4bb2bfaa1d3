// Logs: pino, one JSON object per line on stdout (LOG_FORMAT=json, the default but in development), or a
// short readable line per entry (LOG_FORMAT=pretty, the default of `next dev`/development). One logger per
// process, kept on globalThis like the runtime: the custom server and Next's bundle are two copies of this
// code. Never log a key, token, password or prompt text: callers pass ids and names only.
import pino, { type DestinationStream, type Logger } from 'pino';
import { env } from '@/server/env';
import { sourceMappedStack } from './source-mapped-stack';

export type { Logger };
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  format?: LogFormat;
  level?: string;
  /** Where the lines go; default stdout. Tests pass a stream of their own. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? 'json';
  const out = options.destination ?? (format === 'pretty' ? prettyStdout() : asyncStdout());
  return pino({ level: options.level ?? 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: serializeError } }, out);
}

/** pino's error serializer, with the stack's frames at their place in server/*.ts (source-mapped-stack.ts). */
function serializeError(err: Error) {
  const out = pino.stdSerializers.err(err);
  if (out && typeof out.stack === 'string') out.stack = sourceMappedStack(out.stack);
  return out;
}

const GLOBAL_KEY = Symbol.for('switchboard.logger');
type GlobalWithLogger = typeof globalThis & { [GLOBAL_KEY]?: Logger };

/** The process's logger, from LOG_FORMAT and LOG_LEVEL. */
export function processLogger(): Logger {
  const g = globalThis as GlobalWithLogger;
  if (g[GLOBAL_KEY]) return g[GLOBAL_KEY];
  const e = env();
  return (g[GLOBAL_KEY] = createLogger({ format: e.LOG_FORMAT, level: e.LOG_LEVEL }));
}

/** Tests: the process logger becomes `logger` until the returned function is called. */
export function replaceProcessLoggerForTests(logger: Logger): () => void {
  const g = globalThis as GlobalWithLogger;
  const before = g[GLOBAL_KEY];
  g[GLOBAL_KEY] = logger;
  return () => {
    g[GLOBAL_KEY] = before;
  };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };

/** One JSON line as `12:00:01 INFO  request method=GET path=/ status=200 …` (the fields in their order). */
export function formatPretty(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, pid: _pid, err, ...fields } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 19) : '';
  const rest = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const stack = err && typeof err === 'object' && 'stack' in err ? `\n${String((err as { stack: unknown }).stack)}` : '';
  return `${clock} ${LEVELS[level as number] ?? String(level)} ${String(msg ?? '')}${rest ? ' ' + rest : ''}${stack}\n`;
}

/**
 * stdout written off the event loop and in blocks (sonic-boom, `sync: false`, `minLength`): lines gather in
 * memory and go out in one asynchronous write once 4 KB are waiting, or at the latest a second after they were
 * logged. A synchronous write per request was a fifth of the chat path's CPU in the bench and blocked the event
 * loop whenever the pipe to a log collector was full; an asynchronous write per line still cost ~10 % (a
 * thread-pool hand-off and a pipe write per request). What is buffered is written synchronously when the
 * process exits (`beforeExit`, `exit`); a `kill -9` loses at most the last second of lines. If the reader stalls, more than
 * 16 MB of waiting lines are dropped rather than held in memory.
 */
function asyncStdout(): DestinationStream {
  const out = new LineBlocks(pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, maxLength: LOG_BUFFER_MAX_BYTES }), LOG_BLOCK_BYTES);
  setInterval(() => {
    try {
      out.flush();
    } catch {
      // destroyed (stdout closed): nothing to flush
    }
  }, LOG_FLUSH_MS).unref();
  // Before pino's own exit hooks (registered with the destination) flush sonic-boom: at `beforeExit` it flushes
  // and then ends the stream, at `exit` it writes synchronously.
  const passAll = () => {
    try {
      out.pass();
    } catch {
      // destroyed: nothing to write
    }
  };
  process.prependListener('beforeExit', passAll);
  process.prependListener('exit', passAll);
  return out;
}

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * Lines gathered into one string per block before sonic-boom sees them. sonic-boom appends each line to its
 * last buffered string and measures that string's byte length on every write, which flattens it: a copy of
 * the whole block per line, ~6 KB of garbage per request line at 1,000 req/s (allocation profile of the
 * bench), the largest single allocator on the chat path. Here a line costs an array slot; a block is joined
 * once.
 */
export class LineBlocks implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;

  constructor(
    private readonly out: Pick<SonicBoom, 'write' | 'flush' | 'flushSync'>,
    private readonly blockChars: number,
  ) {}

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.blockChars) this.pass();
  }

  /** Hands what is gathered to sonic-boom, as one string. */
  pass(): void {
    if (this.lines.length === 0) return;
    const block = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.out.write(block);
  }

  flush(): void {
    this.pass();
    this.out.flush();
  }

  flushSync(): void {
    this.pass();
    this.out.flushSync();
  }
}

const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 1000;
const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

function prettyStdout(): DestinationStream {
  return { write: (line: string) => void process.stdout.write(formatPretty(line)) };
}
