'use client';

import { SelectField, TextareaField, TextField } from '@/components/console/fields';
import { formatPrice, perMillion } from '@/components/console/format';
import type { RouterOutputs } from '@/components/console/trpc';
import type { ChatOptions } from './use-chat';

type Model = RouterOutputs['models']['forAccount']['data'][number];

export const SAMPLE_TOOLS = JSON.stringify(
  [{ type: 'function', function: { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
  null,
  2,
);

export interface Settings extends Omit<ChatOptions, 'temperature' | 'maxTokens' | 'tools'> {
  temperature: string;
  maxTokens: string;
  tools: string;
}

export function SettingsPanel({ models, settings, onChange, toolsError }: { models: Model[]; settings: Settings; onChange: (s: Settings) => void; toolsError?: string }) {
  const set = (patch: Partial<Settings>) => onChange({ ...settings, ...patch });
  const model = models.find((m) => m.id === settings.model);
  return (
    <div className="space-y-4">
      <SelectField id="pg-model" label="Model" value={settings.model} onChange={(e) => set({ model: e.target.value })}>
        {models.filter((m) => m.usability.usable).map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
          </option>
        ))}
        {models.some((m) => !m.usability.usable) ? (
          <optgroup label="Unavailable here">
            {models.filter((m) => !m.usability.usable).map((m) => (
              <option key={m.id} value={m.id} disabled>
                {m.id} (unavailable)
              </option>
            ))}
          </optgroup>
        ) : null}
      </SelectField>
      {model && !model.usability.usable ? (
        <p role="status" className="-mt-2 text-xs leading-5 font-medium text-amber-800 dark:text-amber-200">
          {model.id} cannot be used here: {model.usability.message} Pick another model.
        </p>
      ) : model ? (
        <p className="-mt-2 text-xs leading-5 text-muted">
          {perMillion(model.pricing.prompt) === 0 && perMillion(model.pricing.completion) === 0
            ? 'Free'
            : `${formatPrice(perMillion(model.pricing.prompt))} in · ${formatPrice(perMillion(model.pricing.completion))} out per 1M tokens`}
          {model.supportsReasoning ? ' · reasoning' : ''}
        </p>
      ) : null}
      <details className="border-t border-border pt-4">
        <summary className="cursor-pointer text-sm font-medium text-foreground">
          Advanced{settings.system || settings.temperature || settings.maxTokens || settings.tools || settings.reasoning !== 'default' ? ' (changed)' : ''}
        </summary>
        <div className="mt-4 space-y-4">
          <TextareaField id="pg-system" label="System prompt" rows={3} value={settings.system} onChange={(e) => set({ system: e.target.value })} placeholder="You are a helpful assistant." />
          <div className="grid grid-cols-2 gap-3">
            <TextField id="pg-temperature" label="Temperature" inputMode="decimal" placeholder="Default" value={settings.temperature} onChange={(e) => set({ temperature: e.target.value })} />
            <TextField id="pg-max-tokens" label="Max tokens" inputMode="numeric" placeholder="Default" value={settings.maxTokens} onChange={(e) => set({ maxTokens: e.target.value })} />
          </div>
          {model?.supportsReasoning ? (
            <SelectField id="pg-reasoning" label="Reasoning effort" value={settings.reasoning} onChange={(e) => set({ reasoning: e.target.value as Settings['reasoning'] })}>
              <option value="default">Model default</option>
              <option value="low">Low</option>
              <option value="medium">Medium</option>
              <option value="high">High</option>
              <option value="off">Off</option>
            </SelectField>
          ) : null}
          {model?.supported_parameters.includes('tools') ? (
            <div>
              <TextareaField
                id="pg-tools"
                label="Tools (JSON, optional)"
                rows={4}
                controlClassName="font-mono text-xs"
                value={settings.tools}
                onChange={(e) => set({ tools: e.target.value })}
                placeholder='[{"type":"function","function":{…}}]'
                error={toolsError}
                hint="Tool calls are shown, not run."
              />
              {!settings.tools ? (
                <button type="button" className="mt-1 text-xs font-medium text-accent-text hover:underline" onClick={() => set({ tools: SAMPLE_TOOLS })}>
                  Insert an example tool
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
      </details>
    </div>
  );
}
