import type { IncomingMessage } from 'node:http';
import { AppError } from '@/server/errors';

/**
 * Reads a request body up to `limit` bytes; a larger one is a 413, decided as soon as it is known (declared
 * Content-Length, or the byte that goes over). The rest is drained unread, never buffered. The refusal is
 * reported at once, except to a client that asked to close the connection: closing the socket under its
 * upload would lose it the answer (EPIPE), so it gets the answer when its upload ends.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const refuse = () => reject(new AppError('payload_too_large', `Request body is larger than the limit of ${Math.round(limit / 1_000_000)} MB`, { limit_bytes: limit }));
    const closing = /\bclose\b/i.test(String(req.headers.connection ?? ''));
    const declared = Number(req.headers['content-length']);
    let over = Number.isFinite(declared) && declared > limit;
    if (over && !closing) refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      over = true;
      chunks.length = 0;
      if (!closing) refuse();
    });
    req.on('end', () => (over ? refuse() : resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))));
    req.on('error', reject);
    req.on('aborted', () => reject(new AppError('bad_request', 'Client closed the connection')));
  });
}
