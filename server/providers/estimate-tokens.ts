// The one token estimator, for when no tokenizer's count is at hand: the reservation's worst case before a
// provider is called, the prompt of a generation whose provider never reported usage (an aborted or cut
// stream), the built-in echo model's metering, and the output seen on a stream. No tokenizer: text is
// measured in UTF-8 bytes (real tokenizers average ~4 per token for English; CJK and code run closer to 2–3)
// and an image counts as an image, a fixed number of tokens — never as the length of its base64 data URL.
// A PDF document counts by its pages (count-pdf-pages.ts), a fixed number of tokens each, or, when its pages
// cannot be counted, as the most pages a provider takes in one request.
import { countPdfPages } from './count-pdf-pages';
import type { ChatMessage, ChatRequest } from './types';

/** Tokens an image is assumed to cost before the provider says (Anthropic's large-image figure). */
export const IMAGE_TOKENS = 1_600;
/**
 * Tokens a PDF page may cost: Anthropic's densest text (it documents 1,500–3,000 a page) plus the page as an
 * image, since Claude reads each page both ways. Gemini bills 258 a page and OpenAI the text plus an image,
 * so this bounds every provider.
 */
export const PDF_PAGE_TOKENS_WORST = 3_000 + IMAGE_TOKENS;
/** What a page likely costs, for billing when the provider reported nothing (Claude measures ~2,300 a page, Gemini ~560). */
export const PDF_PAGE_TOKENS = 2_000;
/**
 * Pages assumed for a document that cannot be counted (a `file_id`, or pages in compressed object streams):
 * the most Anthropic and OpenAI take in one request.
 */
export const PDF_UNCOUNTED_PAGES = 100;

/** Role and message framing, per message (worst case only). */
const MESSAGE_FRAMING_BYTES = 16;

export interface PromptSize {
  /** UTF-8 bytes of the messages' text parts and tool calls. */
  textBytes: number;
  /** Per-message framing and the tool definitions' JSON (counted in the worst case only). */
  framingBytes: number;
  images: number;
  /** Pages of PDF documents (file parts), PDF_UNCOUNTED_PAGES for each one whose pages cannot be counted. */
  pdfPages: number;
}

export function measurePrompt(messages: readonly ChatMessage[], tools?: ChatRequest['tools']): PromptSize {
  let textBytes = 0;
  let framingBytes = 0;
  let images = 0;
  let pdfPages = 0;
  for (const m of messages) {
    const c = m.content;
    if (typeof c === 'string') textBytes += Buffer.byteLength(c);
    else if (Array.isArray(c)) for (const p of c) {
      if (p.type === 'text') textBytes += Buffer.byteLength(p.text);
      else if (p.type === 'file') pdfPages += countPdfPages(p.file) ?? PDF_UNCOUNTED_PAGES;
      else images++;
    }
    if (m.role === 'assistant') for (const t of m.tool_calls ?? []) textBytes += t.function.arguments.length + t.function.name.length;
    framingBytes += MESSAGE_FRAMING_BYTES;
  }
  for (const t of tools ?? []) framingBytes += JSON.stringify(t).length;
  return { textBytes, framingBytes, images, pdfPages };
}

/** The likely count (4 bytes a token): what is billed when the provider reported nothing, and echo's usage. */
export function estimatePromptTokens(size: PromptSize): number {
  return estimateTokensFromChars(size.textBytes) + size.images * IMAGE_TOKENS + size.pdfPages * PDF_PAGE_TOKENS;
}

/** A deliberately high count (3 bytes a token, framing and tool definitions included), for the reservation only. */
export function worstCasePromptTokens(size: PromptSize): number {
  return Math.ceil((size.textBytes + size.framingBytes) / 3) + size.images * IMAGE_TOKENS + size.pdfPages * PDF_PAGE_TOKENS_WORST;
}

/** Text seen (generated output), ≈4 characters a token. */
export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(chars / 4);
}
