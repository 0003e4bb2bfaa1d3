// Remote configuration for first-party clients (CLI, editor extensions): what they should default to
// and which features they may show. These code defaults sit under every layer stored in RemoteConfig
// (GLOBAL, then the active organization, then the user), so a fresh install answers sensibly with an
// empty table.
export const REMOTE_CONFIG_DEFAULTS = {
  default_model: 'anthropic/claude-sonnet-5.5',
  /** For cheap background work: titles, summaries, commit messages. */
  small_model: 'openai/gpt-4o-mini',
  allowed_providers: ['anthropic', 'openai', 'google', 'deepseek', 'switchboard'],
  features: {
    streaming: true,
    tool_calls: true,
    reasoning: true,
    image_input: true,
    device_login: true,
    usage_dashboard: true,
  },
  /** Clients older than this should ask the user to update. */
  min_client_version: '0.1.0',
  /** How often clients may re-fetch this document. */
  refresh_interval_seconds: 3600,
} as const;

export type RemoteConfig = Record<string, unknown>;
