import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { AppError, errorReply } from '@/server/errors';
import { createLogger, formatPretty, LineBlocks, replaceProcessLoggerForTests } from './logger';

describe('logger', () => {
  it('writes one JSON object per line with level, time and message', () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (l: string) => void lines.push(l) } });
    logger.info({ request_id: 'req_x', status: 200 }, 'request');
    logger.debug('not at info');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request', request_id: 'req_x', status: 200 });
  });

  it('pretty: one readable line with the fields, and the stack of an error', () => {
    expect(formatPretty(JSON.stringify({ level: 30, time: '2026-01-02T03:04:05.678Z', pid: 1, msg: 'request', method: 'GET', status: 200 }))).toBe('03:04:05 INFO  request method=GET status=200\n');
    const err = formatPretty(JSON.stringify({ level: 50, time: '2026-01-02T03:04:05.678Z', msg: 'failed', err: { type: 'Error', message: 'x', stack: 'Error: x\n    at here' } }));
    expect(err).toBe('03:04:05 ERROR failed\nError: x\n    at here\n');
  });

  it('LOG_FORMAT defaults to pretty in development and json otherwise', () => {
    expect(parseEnv({ NODE_ENV: 'development' }).LOG_FORMAT).toBe('pretty');
    expect(parseEnv({ NODE_ENV: 'production' }).LOG_FORMAT).toBe('json');
    expect(parseEnv({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => parseEnv({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });

  it("errorReply logs a server fault (not an AppError) as one error line with the request id; the client sees nothing of it", () => {
    const lines: string[] = [];
    const restore = replaceProcessLoggerForTests(createLogger({ destination: { write: (l: string) => void lines.push(l) } }));
    try {
      const reply = errorReply(new Error('relation "x" does not exist'), 'req_abc', 'generation');
      expect(reply.status).toBe(500);
      expect(JSON.stringify(reply.body)).not.toContain('relation');
      errorReply(new AppError('upstream_error', 'the provider failed'), 'req_def');
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0]!);
      expect(entry).toMatchObject({ level: 50, request_id: 'req_abc', where: 'generation', msg: 'generation failed', err: { type: 'Error', message: 'relation "x" does not exist' } });
      expect(entry.err.stack).toContain('logger.test.ts');
    } finally {
      restore();
    }
  });

  it('LineBlocks: lines reach the destination in order, one string per block, the rest on flush', () => {
    const writes: string[] = [];
    let flushed = 0;
    const blocks = new LineBlocks({ write: (s: string) => void writes.push(s), flush: () => void flushed++, flushSync: () => void flushed++ } as never, 10);
    blocks.write('aaaa\n');
    blocks.write('bbbb\n');
    expect(writes).toEqual(['aaaa\nbbbb\n']); // 10 characters: one block
    blocks.write('c\n');
    expect(writes).toHaveLength(1);
    blocks.flush();
    expect(writes).toEqual(['aaaa\nbbbb\n', 'c\n']);
    expect(flushed).toBe(1);
    blocks.flushSync();
    expect(writes).toHaveLength(2); // nothing gathered: nothing written
  });

  it.each(['exit', 'end'])('stdout: every line logged before the process ends (%s) is written, in order', (how) => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '__fixtures__', 'log-lines-then-exit.ts'), how], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' });
    expect(child.status).toBe(0);
    const lines = child.stdout.trim().split('\n').map((l) => JSON.parse(l) as { i: number });
    expect(lines.map((l) => l.i)).toEqual([0, 1, 2, 3, 4]);
  });
});
