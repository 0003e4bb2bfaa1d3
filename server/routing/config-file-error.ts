// A routing configuration (SWITCHBOARD_CONFIG, `catalog:import FILE`) that cannot be used. Every problem is
// one line an operator can jump to from a terminal: `switchboard.yaml:14:9: models[0].endpoints[1].pricing.input:
// a price cannot be negative` (file:line:column, the field's path as the file spells it, what is wrong).
import { AppError } from '@/server/errors';

export interface ConfigIssue {
  /** 1-based; absent when the problem has no place in the text (an unreadable file). */
  line?: number;
  column?: number;
  /** `models[0].endpoints[1].pricing.input`; '' for the file as a whole. */
  field: string;
  message: string;
}

/** Enough to fix a file in one go without flooding a terminal with a thousand repeats of one mistake. */
const MAX_LISTED = 20;

export function formatConfigIssue(file: string, issue: ConfigIssue): string {
  const where = issue.line === undefined ? file : `${file}:${issue.line}:${issue.column ?? 1}`;
  return issue.field ? `${where}: ${issue.field}: ${issue.message}` : `${where}: ${issue.message}`;
}

/** `['models', 0, 'endpoints', 1, 'pricing']` → `models[0].endpoints[1].pricing`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

export class ConfigFileError extends AppError {
  readonly file: string;
  readonly issues: readonly ConfigIssue[];

  constructor(file: string, issues: ConfigIssue[]) {
    const lines = issues.slice(0, MAX_LISTED).map((i) => formatConfigIssue(file, i));
    if (issues.length > MAX_LISTED) lines.push(`${file}: …and ${issues.length - MAX_LISTED} more problems`);
    // bad_request: the admin API's import and the CLI hand it to whoever sent the file.
    super('bad_request', lines.join('\n'), { file, issues: issues.slice(0, MAX_LISTED) });
    this.name = 'ConfigFileError';
    this.file = file;
    this.issues = issues;
  }
}
