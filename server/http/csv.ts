// CSV as spreadsheets read it (RFC 4180, CRLF line ends), shared by the console's usage export and the REST
// audit log export.

/**
 * One CSV cell. Numbers are written as they are; every text cell starting with a formula character (=, +, -, @,
 * tab, CR) gets a leading apostrophe, "-1+2" included: spreadsheets evaluate "-1+cmd|…" as a formula too, and text
 * such as X-Title, model names, error codes, user agents or emails comes from whoever made the request.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  const s = String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A header line and one line per row, each ending with CRLF. */
export function csvText<C extends string>(columns: readonly C[], rows: Iterable<Record<C, unknown>>): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
