// The snippets the landing page shows, built from the origin the visitor reached us on so they can be
// pasted as they are. Kept apart from the markup so a test can assert on exactly what we print.

/** The example when this server can serve it; the landing page passes the first of its models that works here. */
export const exampleModel = 'anthropic/claude-sonnet-4.5';

export function curlSnippet(apiBase: string, model = exampleModel): string {
  return `curl ${apiBase}/chat/completions \\
  -H "Authorization: Bearer $SWITCHBOARD_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "model": "${model}",
    "messages": [
      { "role": "user", "content": "Hello!" }
    ]
  }'`;
}

export function typescriptSnippet(apiBase: string, model = exampleModel): string {
  return `import OpenAI from "openai";

const client = new OpenAI({
  baseURL: "${apiBase}",
  apiKey: process.env.SWITCHBOARD_API_KEY,
});

const stream = await client.chat.completions.create({
  model: "${model}",
  messages: [{ role: "user", content: "Hello!" }],
  stream: true,
});

for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}`;
}

export function pythonSnippet(apiBase: string, model = 'google/gemini-2.5-flash'): string {
  return `import os
from openai import OpenAI

client = OpenAI(
    base_url="${apiBase}",
    api_key=os.environ["SWITCHBOARD_API_KEY"],
)

completion = client.chat.completions.create(
    model="${model}",  # any provider, same call
    messages=[{"role": "user", "content": "Hello!"}],
)
print(completion.choices[0].message.content)`;
}
