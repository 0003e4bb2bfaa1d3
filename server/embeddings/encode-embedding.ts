// OpenAI's `encoding_format: base64`: the vector's float32 values, little-endian, base64-encoded (what the
// OpenAI SDKs request by default and decode with a Float32Array). Written byte by byte with writeFloatLE so
// the order does not depend on the machine's.
import type { EmbeddingVector } from './embeddings-types';

export function floatsToBase64(values: readonly number[]): string {
  const buf = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) buf.writeFloatLE(values[i]!, i * 4);
  return buf.toString('base64');
}

export function base64ToFloats(b64: string): number[] {
  const buf = Buffer.from(b64, 'base64');
  const out = new Array<number>(buf.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

/** The vector as the client asked for it, whichever form the upstream answered in. */
export function renderEmbedding(v: EmbeddingVector, format: 'float' | 'base64'): EmbeddingVector {
  if (format === 'base64') return typeof v === 'string' ? v : floatsToBase64(v);
  return typeof v === 'string' ? base64ToFloats(v) : v;
}
