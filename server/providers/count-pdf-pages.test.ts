import { describe, expect, it } from 'vitest';
import { objectStreamPdfDataUrl, pdfDataUrl } from '@/test/fixtures/pdf';
import { countPdfPages } from './count-pdf-pages';
import { estimatePromptTokens, IMAGE_TOKENS, measurePrompt, PDF_PAGE_TOKENS, PDF_PAGE_TOKENS_WORST, PDF_UNCOUNTED_PAGES, worstCasePromptTokens } from './estimate-tokens';
import type { ChatMessage } from './types';

const withFile = (file: { file_data?: string; file_id?: string }): ChatMessage[] => [{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'file', file }] }];

describe('countPdfPages', () => {
  it('counts Page leaves, not the Pages node', () => {
    expect(countPdfPages({ file_data: pdfDataUrl(1) })).toBe(1);
    expect(countPdfPages({ file_data: pdfDataUrl(7) })).toBe(7);
  });

  it('gives up (null) on object streams, a file_id, or data that is no base64 data URL', () => {
    expect(countPdfPages({ file_data: objectStreamPdfDataUrl() })).toBeNull();
    expect(countPdfPages({ file_id: 'file-abc' })).toBeNull();
    expect(countPdfPages({ file_data: 'not a data url' })).toBeNull();
  });
});

describe('the token estimate of a PDF', () => {
  it('counts pages, never the base64 text', () => {
    const data = pdfDataUrl(3);
    const size = measurePrompt(withFile({ file_data: data }));
    expect(size.textBytes).toBe(4);
    expect(size.pdfPages).toBe(3);
    expect(estimatePromptTokens(size)).toBe(1 + 3 * PDF_PAGE_TOKENS);
    // The worst case bounds Claude's documented 3,000 text tokens a page plus the page as an image.
    expect(worstCasePromptTokens(size)).toBe(Math.ceil((4 + size.framingBytes) / 3) + 3 * PDF_PAGE_TOKENS_WORST);
    expect(PDF_PAGE_TOKENS_WORST).toBeGreaterThanOrEqual(3_000 + IMAGE_TOKENS);
  });

  it('assumes the most pages a provider takes when it cannot count them', () => {
    expect(measurePrompt(withFile({ file_id: 'file-abc' })).pdfPages).toBe(PDF_UNCOUNTED_PAGES);
    expect(measurePrompt(withFile({ file_data: objectStreamPdfDataUrl() })).pdfPages).toBe(PDF_UNCOUNTED_PAGES);
  });
});
