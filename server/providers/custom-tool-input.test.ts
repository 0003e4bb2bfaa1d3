import { describe, expect, it } from 'vitest';
import { customToolArguments, customToolArgumentsStream, customToolInput, partialCustomToolInput } from './custom-tool-input';

describe('custom tool input as function arguments', () => {
  const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n-const s = "old";\n+const s = "new \\u00e9 😀";\n*** End Patch\n';

  it('round-trips the input through the arguments', () => {
    expect(customToolArguments(patch)).toBe(JSON.stringify({ input: patch }));
    expect(customToolInput(customToolArguments(patch))).toBe(patch);
  });

  it('streamed fragments (a surrogate pair split between two) join into the same arguments', () => {
    const cut = patch.indexOf('😀') + 1;
    const pieces = [patch.slice(0, 10), patch.slice(10, cut), patch.slice(cut)];
    const args = customToolArgumentsStream.open + pieces.map(customToolArgumentsStream.fragment).join('') + customToolArgumentsStream.close;
    expect(customToolInput(args)).toBe(patch);
  });

  it('arguments that are not {"input": string} are given as they came', () => {
    expect(customToolInput('*** Begin Patch')).toBe('*** Begin Patch');
    expect(customToolInput('{"patch":"x"}')).toBe('{"patch":"x"}');
    expect(customToolInput('{"input":42}')).toBe('{"input":42}');
  });

  it('decodes the input of arguments still streaming: always a prefix of the final input', () => {
    const args = JSON.stringify({ input: patch }).replace('{"input":', '{ "input" : ');
    let previous = '';
    for (let end = 0; end <= args.length; end++) {
      const partial = partialCustomToolInput(args.slice(0, end));
      if (end < '{ "input" : "'.length) {
        expect(partial).toBeNull();
        continue;
      }
      expect(patch.startsWith(partial!)).toBe(true);
      expect(partial!.length).toBeGreaterThanOrEqual(previous.length);
      previous = partial!;
    }
    expect(previous).toBe(patch);
    expect(partialCustomToolInput('{"input":"a\\u00')).toBe('a'); // an unfinished escape waits
    expect(partialCustomToolInput('{"input":"x\\ud83d')).toBe('x'); // a high surrogate waits for its pair
    expect(partialCustomToolInput('{"patch":"x"}')).toBeNull();
  });
});
