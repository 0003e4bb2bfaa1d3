// Custom tools: the Responses API's freeform tools (`{"type":"custom","name","format"}`, e.g. Codex's
// apply_patch), whose calls carry one string (`custom_tool_call.input`) rather than JSON arguments. Inside the
// gateway (the Chat Completions shape every adapter speaks) such a call is a function call whose arguments are
// `{"input": "<the string>"}`: other providers are offered the tool as a function with that one parameter
// (formats/openai-responses/custom-tools.ts), and OpenAI's own custom_tool_call items are read into the same
// shape (convert-responses-response.ts, convert-responses-stream.ts), so the Responses renderer turns both back
// into custom_tool_call items.

/** The one parameter of a custom tool offered as a function. */
export const CUSTOM_TOOL_PARAMETER = 'input';

/** A custom tool call's input → the function-call arguments that stand for it. */
export function customToolArguments(input: string): string {
  return JSON.stringify({ [CUSTOM_TOOL_PARAMETER]: input });
}

/**
 * Function-call arguments → the custom tool call's input: the `input` string, or (a model that answered
 * something else) the arguments as they came, which is the best a client can be given.
 */
export function customToolInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as Record<string, unknown>)[CUSTOM_TOOL_PARAMETER] === 'string') {
      return (parsed as Record<string, string>)[CUSTOM_TOOL_PARAMETER];
    }
  } catch {
    // not JSON: the model wrote the input itself
  }
  return args;
}

/**
 * The same arguments built piece by piece as an input streams in: `open` before the first fragment, each
 * fragment escaped as JSON string content, `close` at the end. Joined, they parse as customToolArguments.
 */
export const customToolArgumentsStream = {
  open: `{"${CUSTOM_TOOL_PARAMETER}":"`,
  fragment: (text: string) => JSON.stringify(text).slice(1, -1),
  close: '"}',
};

const OPENING = /^\s*\{\s*"input"\s*:\s*"/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The input decoded so far from arguments still streaming in (`{"input":"…` with the string unfinished), for
 * a client to see it grow; null when the arguments do not start that way (then only the whole input is told,
 * at the end). Stops before an unfinished escape and before a high surrogate whose pair has not come yet, so
 * what it returns is always a prefix of the final input.
 */
export function partialCustomToolInput(args: string): string | null {
  const opening = OPENING.exec(args);
  if (!opening) return null;
  let out = '';
  let i = opening[0].length;
  while (i < args.length) {
    const c = args[i]!;
    if (c === '"') break;
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const next = args[i + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = args.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else {
      out += ESCAPES[next] ?? next;
      i += 2;
    }
  }
  const last = out.charCodeAt(out.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? out.slice(0, -1) : out;
}
