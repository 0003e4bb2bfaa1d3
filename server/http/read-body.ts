import type { IncomingMessage } from 'node:http';
import { AppError } from '@/server/errors';

/** Reads a request body up to `limit` bytes; a larger one is a 413 (and we stop reading it). */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new AppError('payload_too_large', `Request body is larger than the limit of ${Math.round(limit / 1_000_000)} MB`, { limit_bytes: limit }));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new AppError('payload_too_large', `Request body is larger than the limit of ${Math.round(limit / 1_000_000)} MB`, { limit_bytes: limit }));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.on('error', reject);
    req.on('aborted', () => reject(new AppError('bad_request', 'Client closed the connection')));
  });
}
