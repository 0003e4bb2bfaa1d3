import { codeFrameClasses } from './code-frame';
import { CopyButton } from './copy-button';
import { cx } from './cx';
import { HighlightedCode, type CodeLanguage } from './highlighted-code';

export function CodeBlock({
  code,
  language,
  title,
  className,
}: {
  code: string;
  language: CodeLanguage;
  /** Shown in the header, e.g. a file name; also names the copy button. */
  title: string;
  className?: string;
}) {
  return (
    <figure className={cx(codeFrameClasses, className)}>
      <figcaption className="flex items-center justify-between gap-4 border-b border-zinc-800 px-4 py-2">
        <span className="font-mono text-xs text-zinc-400">{title}</span>
        <CopyButton text={code} label={`Copy ${title}`} />
      </figcaption>
      <HighlightedCode code={code} language={language} />
    </figure>
  );
}
