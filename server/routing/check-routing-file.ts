// What a configuration file's schema cannot see: ids repeated across entries, aliases that clash, endpoints
// naming providers nobody defined, keys whose ids (hence health refs) collide. The build would only warn
// about most of these; a file is the operator's own text, so they are refused with the field that is wrong.
import { keyIdOf } from './compile-provider';
import type { RoutingFile } from './config-schema';

export interface FieldProblem {
  path: (string | number)[];
  message: string;
}

export function checkRoutingFile(file: RoutingFile, knownProviders: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];

  const providerAt = new Map<string, number>();
  file.providers.forEach((p, i) => {
    const first = providerAt.get(p.id);
    if (first !== undefined) problems.push({ path: ['providers', i, 'id'], message: `duplicate provider id "${p.id}" (also providers[${first}])` });
    else providerAt.set(p.id, i);
    if (p.type === 'openai-compatible' && p.base_url === undefined) {
      problems.push({ path: ['providers', i, 'base_url'], message: 'an openai-compatible provider needs base_url (where its server listens)' });
    }
    const keyAt = new Map<string, number>();
    p.keys.forEach((k, j) => {
      const id = keyIdOf(k, j);
      const firstKey = keyAt.get(id);
      if (firstKey !== undefined) {
        problems.push({ path: ['providers', i, 'keys', j], message: `duplicate key id "${id}" (also keys[${firstKey}]): give each key its own id` });
      } else keyAt.set(id, j);
    });
  });

  // Model ids first, so an alias that repeats a later model's id is caught too.
  const modelAt = new Map<string, number>();
  file.models.forEach((m, i) => {
    const first = modelAt.get(m.id);
    if (first !== undefined) problems.push({ path: ['models', i, 'id'], message: `duplicate model id "${m.id}" (also models[${first}])` });
    else modelAt.set(m.id, i);
  });
  const aliasAt = new Map<string, string>();
  file.models.forEach((m, i) => {
    m.aliases.forEach((alias, j) => {
      const path = ['models', i, 'aliases', j];
      const asModel = modelAt.get(alias);
      if (asModel !== undefined && asModel !== i) problems.push({ path, message: `alias "${alias}" is the id of models[${asModel}]` });
      else if (aliasAt.has(alias) && aliasAt.get(alias) !== m.id) problems.push({ path, message: `alias "${alias}" is already an alias of "${aliasAt.get(alias)}"` });
      else aliasAt.set(alias, m.id);
    });
    m.endpoints.forEach((e, j) => {
      if (providerAt.has(e.provider) || knownProviders.has(e.provider)) return;
      problems.push({ path: ['models', i, 'endpoints', j, 'provider'], message: `unknown provider "${e.provider}": define it under providers (known: ${listed(knownProviders)})` });
    });
  });
  return problems;
}

function listed(ids: ReadonlySet<string>): string {
  const sorted = [...ids].sort();
  return sorted.length > 12 ? `${sorted.slice(0, 12).join(', ')}, …` : sorted.join(', ');
}
