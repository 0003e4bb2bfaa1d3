// What the landing page may offer as working: its example models, each with whether this server can serve it
// (model-usability.ts, no organization: a visitor has none), and the first usable one for the snippets.
import { listModels } from './list-models';
import { modelUsability, type ModelUsability } from './model-usability';

export const LANDING_MODELS = ['anthropic/claude-sonnet-4.5', 'openai/gpt-4o-mini', 'google/gemini-2.5-flash', 'deepseek/deepseek-chat', 'switchboard/echo'] as const;

const NOT_LISTED: ModelUsability = { usable: false, reason: 'model_disabled', message: 'Not offered on this server.' };

export interface LandingModels {
  /** For the curl and TypeScript snippets. */
  example: string;
  /** For the Python snippet ("any provider, same call"): another usable one when there is one. */
  second: string;
  usability: Record<string, ModelUsability>;
}

export async function landingModels(): Promise<LandingModels> {
  // By id and by alias: a landing id may be a model's other name (deepseek/deepseek-chat is an alias of
  // DeepSeek's Flash model), which the chat path serves just as well.
  const models = new Map((await listModels()).flatMap((m) => [m.id, ...m.aliases].map((name) => [name, m] as const)));
  const usability: Record<string, ModelUsability> = {};
  for (const id of LANDING_MODELS) {
    const m = models.get(id);
    usability[id] = m ? modelUsability(m) : NOT_LISTED;
  }
  const usable = LANDING_MODELS.filter((id) => usability[id]!.usable);
  const example = usable[0] ?? 'switchboard/echo';
  return { example, second: usable.find((id) => id !== example && id !== 'switchboard/echo') ?? example, usability };
}
