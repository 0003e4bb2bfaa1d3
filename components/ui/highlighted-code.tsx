import type { ReactNode } from 'react';
import { cx } from './cx';

export type CodeLanguage = 'shell' | 'typescript' | 'python';

/*
 * A deliberately tiny highlighter for the snippets we write ourselves (quickstarts, docs): comments,
 * strings, keywords, flags and calls. It never needs to understand arbitrary code, and shipping no
 * highlighting library keeps these pages free of client JavaScript. Colours are on a dark frame in both
 * schemes and each clears 4.5:1 against zinc-950.
 */
const patterns: Record<CodeLanguage, RegExp> = {
  shell: /(?<comment>#[^\n]*)|(?<string>"(?:[^"\\]|\\.)*"|'[^']*')|(?<flag>(?<=\s)--?[A-Za-z][\w-]*)|(?<keyword>\b(?:curl|export)\b)/g,
  typescript:
    /(?<comment>\/\/[^\n]*)|(?<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(?<keyword>\b(?:import|from|const|let|await|async|new|return|export|function|for|of)\b)|(?<call>\b[A-Za-z_$][\w$]*(?=\())|(?<number>\b\d+(?:\.\d+)?\b)/g,
  python:
    /(?<comment>#[^\n]*)|(?<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|(?<keyword>\b(?:import|from|def|return|as|with|for|in|None|True|False)\b)|(?<call>\b[A-Za-z_]\w*(?=\())|(?<number>\b\d+(?:\.\d+)?\b)/g,
};

const tokenClass: Record<string, string> = {
  comment: 'text-zinc-400 italic',
  string: 'text-emerald-300',
  keyword: 'text-violet-300',
  flag: 'text-sky-300',
  call: 'text-amber-200',
  number: 'text-orange-300',
};

export function highlight(code: string, language: CodeLanguage): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of code.matchAll(patterns[language])) {
    const kind = Object.entries(match.groups ?? {}).find(([, value]) => value !== undefined)?.[0];
    if (!kind || match.index === undefined) continue;
    if (match.index > last) out.push(code.slice(last, match.index));
    out.push(
      <span key={match.index} className={tokenClass[kind]}>
        {match[0]}
      </span>,
    );
    last = match.index + match[0].length;
  }
  if (last < code.length) out.push(code.slice(last));
  return out;
}

export function HighlightedCode({ code, language, className }: { code: string; language: CodeLanguage; className?: string }) {
  return (
    <pre
      // Scrollable regions must be reachable by keyboard (axe: scrollable-region-focusable).
      tabIndex={0}
      className={cx('overflow-x-auto p-5 font-mono text-[13px] leading-6 text-zinc-100 sm:text-sm', className)}
    >
      <code data-language={language}>{highlight(code, language)}</code>
    </pre>
  );
}
