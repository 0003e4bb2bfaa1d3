// Text a usage record stores that came from outside: what the client sent (the model as asked for, headers,
// our error messages quoting its fields) or what an upstream answered (its error message, response id, finish
// reason). A record must be written whatever that text holds, so it is made storable here rather than
// refused: PostgreSQL text holds no NUL (0x00), and the settlement batch passes its rows as jsonb, where an
// unpaired UTF-16 surrogate (\ud83d alone, which JSON.stringify writes as an escape) is an error that would
// fail the whole batch. Both become U+FFFD, as a decoder shows an unreadable character; the length is
// bounded without cutting a surrogate pair in two.

const REPLACEMENT = '\uFFFD';
// NUL, a high surrogate not followed by a low one, a low surrogate not preceded by a high one.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `s` with NUL and unpaired surrogates replaced by U+FFFD, at most `max` UTF-16 units long. */
export function storableText(s: string, max: number): string {
  let out = s.length > max ? s.slice(0, max) : s;
  // A cut between the halves of a pair would leave a lone high surrogate: drop it instead.
  if (s.length > max && max > 0 && /[\uD800-\uDBFF]/.test(out[out.length - 1]!)) out = out.slice(0, -1);
  return out.replace(UNSTORABLE, REPLACEMENT);
}

/** storableText for an optional column: null and undefined stay null. */
export function storableTextOrNull(s: string | null | undefined, max: number): string | null {
  return s == null ? null : storableText(s, max);
}
