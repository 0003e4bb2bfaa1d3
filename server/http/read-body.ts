import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { AppError } from '@/server/errors';

/** A byte count as people read limits: "25 MiB", "1 MiB", "512 KiB", else exact bytes ("1,000,000 bytes"). */
export function formatByteLimit(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/** The 413 for a body over `limit` bytes (decoded size when the body was compressed), the limit stated exactly. */
export function bodyTooLargeError(limit: number, headers: Record<string, string> = {}): AppError {
  return new AppError('payload_too_large', `Request body is larger than the limit of ${formatByteLimit(limit)}`, { limit_bytes: limit }, headers);
}

/**
 * Reads a request body up to `limit` bytes; a larger one is a 413, decided as soon as it is known (declared
 * Content-Length, or the byte that goes over). The rest is drained unread, never buffered. The refusal is
 * reported at once, except to a client that asked to close the connection: closing the socket under its
 * upload would lose it the answer (EPIPE), so it gets the answer when its upload ends.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const refuse = () => reject(bodyTooLargeError(limit));
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

// Content codings of request bodies (RFC 9110 §8.4). The gateway's routes take gzip, deflate and br, as
// Anthropic's and OpenAI's APIs take compressed bodies from clients that send long conversations; anything
// else is a 415 naming what is accepted (§15.5.16), never a body misread as JSON. zstd would need Node 22.15.
const DECODERS = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip), // §8.4.1.3: a recipient SHOULD treat x-gzip as gzip
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
} as const;
export type Coding = keyof typeof DECODERS;

/** The Accept-Encoding of a 415 from the gateway's routes: what their request bodies may be coded with. */
export const GATEWAY_ACCEPT_ENCODING = 'gzip, deflate, br, identity';

/** The codings a Content-Encoding header lists, in the order they were applied; identity (no coding) left out. */
export function contentCodingsOf(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** 415 for a content coding that is not `accepted`, with the Accept-Encoding that says what is (RFC 9110 §15.5.16). */
export function unsupportedCodingError(coding: string, acceptEncoding: string): AppError {
  const accepted = acceptEncoding.split(', ').filter((c) => c !== 'identity');
  const one = accepted.length > 1 ? `${accepted.slice(0, -1).join(', ')} or ${accepted[accepted.length - 1]} (one of them)` : accepted[0];
  const what = accepted.length ? `request bodies may be sent uncompressed or with Content-Encoding ${one}` : 'request bodies must be sent uncompressed (no Content-Encoding)';
  return new AppError('unsupported_media_type', `Content-Encoding ${coding} is not supported: ${what}`, { content_encoding: coding }, { 'accept-encoding': acceptEncoding });
}

/**
 * The gateway's coding of this Content-Encoding header (undefined: none); a 415 for one it cannot decode, or
 * for codings stacked on one another (RFC 9110 allows it; no client needs it, and each layer is work).
 */
export function gatewayCodingOrThrow(header: string | undefined): Coding | undefined {
  const codings = contentCodingsOf(header);
  for (const c of codings) if (!Object.hasOwn(DECODERS, c)) throw unsupportedCodingError(c, GATEWAY_ACCEPT_ENCODING);
  if (codings.length > 1) throw unsupportedCodingError(codings.join(', '), GATEWAY_ACCEPT_ENCODING);
  return codings[0] as Coding | undefined;
}

/**
 * The body with its content coding undone, refused with a 413 once the output passes `limit` bytes: zlib
 * stops there, so a small "zip bomb" never expands in memory beyond the limit. A body that is not what its
 * coding says is a 400. Decoded on libuv's thread pool, off the event loop.
 */
export async function decodeBody(body: Buffer, coding: Coding, limit: number): Promise<Buffer> {
  try {
    return await DECODERS[coding](body, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw bodyTooLargeError(limit);
    throw new AppError('bad_request', `The request body is not valid ${coding} data (Content-Encoding: ${coding})`);
  }
}
