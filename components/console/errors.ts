// Reading the server's errors in the console. tRPC errors carry the REST error body's code, message and
// metadata (server/trpc/init.ts errorFormatter), so the console shows the services' own words.
import { TRPCClientError } from '@trpc/client';

export interface ConsoleError {
  message: string;
  /** HTTP status the REST API would have answered. */
  status: number | null;
  metadata: Record<string, unknown>;
  /** Field → message, from a zod validation failure (the service's own schema). */
  fields: Record<string, string>;
}

export function readError(error: unknown): ConsoleError {
  if (error instanceof TRPCClientError) {
    const data = error.data as { httpStatus?: number; appError?: { message?: string; metadata?: Record<string, unknown> } } | undefined;
    const metadata = data?.appError?.metadata ?? {};
    const fields: Record<string, string> = {};
    const issues = Array.isArray(metadata.issues) ? (metadata.issues as { path?: string; message?: string }[]) : [];
    for (const issue of issues) if (issue.path && issue.message && !fields[issue.path]) fields[issue.path] = issue.message;
    return { message: data?.appError?.message ?? error.message, status: data?.httpStatus ?? null, metadata, fields };
  }
  if (error instanceof Error) return { message: error.message || 'Something went wrong', status: null, metadata: {}, fields: {} };
  return { message: 'Something went wrong', status: null, metadata: {}, fields: {} };
}

export const errorMessage = (error: unknown) => readError(error).message;

/**
 * Runs a zod schema (one the service exports) on form values and returns field → message for the first
 * issue of each field, or null when the values pass.
 */
export function zodFieldErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> | null {
  if (result.success || !result.error) return null;
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || 'form';
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}
