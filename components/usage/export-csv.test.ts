// The console's CSV export, fed by the same tRPC procedure as the usage table: text a client controls
// (X-Title, model names, error codes, key and member names) must never reach a spreadsheet as a formula.
import { expect, it } from 'vitest';
import { createCaller } from '@/server/trpc/root';
import { testUser } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { insertUsage } from '@/test/factories';
import { usageCsv } from './export-csv';

/** RFC 4180 cells: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += ch;
  }
  return rows;
}

const HOSTILE = ['=1+1', '+1', '-1', '-1+2', '-2+3*cmd|\' /C calc\'!A0', '@SUM(A1:A2)', '\t=1', '\r=1', '-', '+-1'];

describeEachDatabase('usage CSV export', () => {
  it('defuses every formula-leading text cell, "-<digit>" included, and leaves numbers alone', async () => {
    const u = await testUser('csv');
    await insertUsage(HOSTILE.map((title, i) => ({ accountId: u.personalAccountId, userId: u.id, xTitle: title, errorCode: title, errorMessage: title, model: `openai/${i}`, promptTokens: 7 + i })));
    const caller = createCaller({ principal: { kind: 'session', userId: u.id, accountId: u.personalAccountId }, origin: 'https://console.example' });
    const { data } = await caller.usage.list({ limit: 50 });
    const memberNames = new Map([[u.id, '=HYPERLINK("http://evil","x")']]);
    const [header, ...rows] = parseCsv(usageCsv(data, new Map(), memberNames));
    expect(rows).toHaveLength(HOSTILE.length);
    const col = (name: string) => header.indexOf(name);
    expect(rows.map((r) => r[col('app_title')]).sort()).toEqual(HOSTILE.map((t) => `'${t}`).sort());
    expect(new Set(rows.map((r) => r[col('error_code')]))).toEqual(new Set(HOSTILE.map((t) => `'${t}`)));
    expect(new Set(rows.map((r) => r[col('error_message')]))).toEqual(new Set(HOSTILE.map((t) => `'${t}`)));
    expect(rows.every((r) => r[col('member')] === `'=HYPERLINK("http://evil","x")`)).toBe(true);
    for (const r of rows) for (const c of r) expect(c, JSON.stringify(c)).not.toMatch(/^[=+\-@\t\r]/);
    // Numeric columns are written as numbers, unquoted and unprefixed.
    expect(rows.map((r) => Number(r[col('prompt_tokens')])).sort((a, b) => a - b)).toEqual(HOSTILE.map((_, i) => 7 + i));
    expect(rows.every((r) => /^\d+\.\d{6}$/.test(r[col('cost_usd')]))).toBe(true);
  });
});
