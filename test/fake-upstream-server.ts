// A standalone fake upstream for end-to-end runs (scripts/e2e.mjs starts it with tsx and points every
// provider's base URL at it). It replays the recorded fixtures next to each adapter, choosing the scenario
// from the request: the provider from the path, tools → a tool-call answer, reasoning models → thinking,
// an OpenAI request with a prompt_cache_key → the recorded cache hit (cached input tokens).
// Failure control: a path under /status/<code>/ (e.g. a provider whose base URL is <fake>/status/503/v1)
// is answered with that HTTP status and an OpenAI-style error body, so specs can make one endpoint of a
// model fail and watch the request fail over to the next.
// Prints {"port": N} on its first stdout line.
import { fixtureChunks, readFixture, startFakeUpstream, type FakeResponse } from './fake-upstream';

function scenario(path: string, body: Record<string, unknown> | undefined): { provider: string; name: string; stream: boolean } {
  const hasTools = Array.isArray(body?.tools) && body!.tools.length > 0;
  if (path.startsWith('/v1/messages')) {
    return { provider: 'anthropic', name: hasTools ? 'tool_use' : body?.thinking ? 'thinking' : 'text', stream: body?.stream === true };
  }
  if (path.startsWith('/v1beta/models/')) {
    return { provider: 'gemini', name: hasTools ? 'function_call' : 'text', stream: path.includes(':streamGenerateContent') };
  }
  if (path === '/chat/completions') {
    // DeepSeek's base URL has no /v1.
    // deepseek-reasoner and deepseek-flash (V4.1 Flash, thinking by default) answer with reasoning.
    return { provider: 'openai-compatible', name: hasTools ? 'tool_calls' : /reasoner|flash/.test(String(body?.model)) ? 'reasoning' : 'text', stream: body?.stream === true };
  }
  return { provider: 'openai', name: hasTools ? 'tool_calls' : body?.prompt_cache_key ? 'cached_usage' : 'text', stream: body?.stream === true };
}

async function main() {
  const upstream = await startFakeUpstream((req): FakeResponse => {
    const failure = /^\/status\/(\d{3})\//.exec(req.path);
    if (failure) {
      const status = Number(failure[1]);
      return { status, json: { error: { message: `fake upstream: answering ${status} as asked by the path`, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } } };
    }
    const s = scenario(req.path, req.body as Record<string, unknown> | undefined);
    if (s.stream) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks(s.provider, `${s.name}.chunks.txt`), delayMs: 5 };
    return { status: 200, json: JSON.parse(readFixture(s.provider, `${s.name}.json`)) };
  });
  process.stdout.write(JSON.stringify({ port: upstream.port }) + '\n');
  const stop = () => void upstream.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
