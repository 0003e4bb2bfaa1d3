// The one formatting of a zod failure: "path: message" for the first issue, and up to ten issues for the
// error's metadata. server/errors.ts turns it into the spec's 400 (badRequestFromZod, and any ZodError
// thrown by a service); REST, tRPC, the chat endpoint and the CLI all go through it. No imports, so
// errors.ts can use it without a cycle.

interface ZodLikeIssue {
  path: PropertyKey[];
  message: string;
}

export function formatZodIssues(issues: readonly ZodLikeIssue[]): { message: string; issues: { path: string; message: string }[] } {
  const first = issues[0];
  const where = first?.path?.length ? `${first.path.map(String).join('.')}: ` : '';
  return {
    message: `${where}${first?.message ?? 'Invalid input'}`,
    issues: issues.slice(0, 10).map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  };
}

export function isZodError(err: unknown): err is Error & { issues: ZodLikeIssue[] } {
  return err instanceof Error && err.name === 'ZodError' && Array.isArray((err as { issues?: unknown }).issues);
}
