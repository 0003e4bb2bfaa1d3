// Pages of a PDF sent as a base64 data URL, for the token estimate (estimate-tokens.ts): providers bill a
// document by its pages, never by the length of its base64 text. Counted without a PDF library: page
// objects are dictionaries holding `/Type /Page` (the page tree's nodes are `/Type /Pages`). When that count
// cannot be trusted, null: page objects packed into compressed object streams (`/ObjStm`, PDF 1.5+, e.g.
// pdfLaTeX's default) are invisible to a byte search, and a `file_id` names bytes we never see.

const TYPE = Buffer.from('/Type');
const PAGE = Buffer.from('/Page');
const OBJECT_STREAM = Buffer.from('/ObjStm');
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const isNameChar = (byte: number | undefined) => byte !== undefined && /[A-Za-z0-9#._-]/.test(String.fromCharCode(byte));

/**
 * Each document is decoded and searched once however often the request is measured (once per candidate
 * endpoint, again for a cut stream's usage): keyed by the part's own `file` object, so nothing outlives the request.
 */
const counted = new WeakMap<object, number | null>();

/** The number of pages of a file part's PDF, or null when it cannot be counted reliably (see above). */
export function countPdfPages(file: { file_data?: string; file_id?: string }): number | null {
  const cached = counted.get(file);
  if (cached !== undefined) return cached;
  const pages = file.file_data === undefined ? null : countPages(file.file_data);
  counted.set(file, pages);
  return pages;
}

function countPages(fileData: string): number | null {
  const comma = fileData.indexOf(',');
  if (!fileData.startsWith('data:') || comma === -1 || !/;base64$/i.test(fileData.slice(0, comma))) return null;
  const pdf = Buffer.from(fileData.slice(comma + 1), 'base64');
  if (pdf.includes(OBJECT_STREAM)) return null;
  let pages = 0;
  for (let at = pdf.indexOf(TYPE); at !== -1; at = pdf.indexOf(TYPE, at + TYPE.length)) {
    let next = at + TYPE.length;
    while (WHITESPACE.has(pdf[next]!)) next++;
    if (pdf.subarray(next, next + PAGE.length).equals(PAGE) && !isNameChar(pdf[next + PAGE.length])) pages++;
  }
  return pages > 0 ? pages : null;
}
