// The first request the console offers to paste once a key is created (components/keys/key-created.tsx).
// One definition, so the reservation the console checks the balance against (list-models-for-account.ts)
// is the one the gateway will hold for exactly this body: a short prompt and a small max_tokens keep it to
// a fraction of a cent on a priced model, and nothing on switchboard/echo. `stream: false`: one JSON answer
// to read in a terminal (curl sends Accept: */*, which would get the default stream).
export const TRY_IT_MAX_TOKENS = 32;

export function tryItBody(model: string) {
  return { model, stream: false, max_tokens: TRY_IT_MAX_TOKENS, messages: [{ role: 'user' as const, content: 'Hello!' }] };
}

/** Models the key dialog prefers for its snippet, in order, after the organization's default_model. */
export const TRY_IT_PREFERENCE = ['openai/gpt-4o-mini', 'anthropic/claude-haiku-4.5', 'google/gemini-2.5-flash', 'deepseek/deepseek-chat', 'switchboard/echo'];

export interface TryItCandidate {
  id: string;
  usability: { usable: boolean };
  trial: { covered: boolean };
}

/** The model the snippet uses: the first usable one the balance covers, by preference; echo when none is. */
export function pickTryItModel(models: readonly TryItCandidate[], defaultModel?: string | null): string {
  const ok = (m: TryItCandidate | undefined) => !!m && m.usability.usable && m.trial.covered;
  for (const id of [...(defaultModel ? [defaultModel] : []), ...TRY_IT_PREFERENCE]) {
    const m = models.find((x) => x.id === id);
    if (ok(m)) return m!.id;
  }
  return models.find(ok)?.id ?? 'switchboard/echo';
}
