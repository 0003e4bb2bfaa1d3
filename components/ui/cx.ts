/** Joins class names, dropping falsy ones: `cx('a', cond && 'b')`. Small enough not to need clsx. */
export function cx(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
