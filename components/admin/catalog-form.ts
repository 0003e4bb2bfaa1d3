// Shared by the catalog dialogs (provider-dialog.tsx, model-dialog.tsx): the server's 400 read as field →
// message, so each message is shown next to its field. The admin services name the field three ways: zod
// issues (metadata.issues[].path, e.g. endpoints.0.pricing.input), the routing checks (metadata.field) and a
// message starting with the dotted field ("keys.1: provider x has no stored key…").
import { readError } from '@/components/console/errors';

export interface FormErrors {
  /** Dotted field path (as the API names it) → message. */
  fields: Record<string, string>;
  /** The message when no field of the form shows it. */
  message: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, message: null };

const FIELD_PREFIX = /^([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*): (.+)$/s;

export function formErrors(error: unknown, shownFields: (field: string) => boolean): FormErrors {
  const e = readError(error);
  const fields: Record<string, string> = { ...e.fields };
  const field = typeof e.metadata.field === 'string' ? e.metadata.field : undefined;
  const prefixed = FIELD_PREFIX.exec(e.message);
  if (field && !fields[field]) fields[field] = prefixed ? prefixed[2] : e.message;
  else if (prefixed && !fields[prefixed[1]]) fields[prefixed[1]] = prefixed[2];
  // A message whose field the form shows is not repeated in the form's notice.
  const located = Object.keys(fields).some(shownFields);
  return { fields, message: located ? null : e.message };
}

/** The message for a field, or for a whole group (`keys.1` covers `keys.1.key_env`). */
export function fieldError(errors: FormErrors, path: string): string | undefined {
  if (errors.fields[path]) return errors.fields[path];
  const nested = Object.keys(errors.fields).find((f) => f.startsWith(`${path}.`));
  return nested ? errors.fields[nested] : undefined;
}

/** A number typed in a field: undefined when blank (the field is left out), NaN stays NaN for the server to refuse. */
export function numberOrUndefined(text: string): number | undefined {
  const t = text.trim();
  return t === '' ? undefined : Number(t);
}

export const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** Only the strings that were filled in. */
export function filled(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''));
}
