import { headers } from 'next/headers';
import Link from 'next/link';
import { Features } from '@/components/marketing/features';
import { Models } from '@/components/marketing/models';
import { curlSnippet, pythonSnippet, typescriptSnippet } from '@/components/marketing/quickstart-snippets';
import { SiteFooter } from '@/components/marketing/site-footer';
import { SiteHeader } from '@/components/marketing/site-header';
import { Badge } from '@/components/ui/badge';
import { ButtonLink, buttonClasses } from '@/components/ui/button';
import { CodeBlock } from '@/components/ui/code-block';
import { CodeTabs } from '@/components/ui/code-tabs';
import { HighlightedCode } from '@/components/ui/highlighted-code';
import { currentUser } from '@/server/auth/current-user';
import { landingModels } from '@/server/catalog/landing-models';
import { publicOrigin } from '@/server/http/public-origin';

/**
 * The origin to print in snippets, by the same rule as every link the server builds (PUBLIC_URL, or forwarded
 * headers behind TRUST_PROXY, else the listening address). Reading the headers makes the page render per request.
 */
async function snippetOrigin(): Promise<string> {
  return publicOrigin(await headers());
}

const steps = [
  { title: 'Create a key', body: 'Sign in, top up credits and create an API key in the console. It is shown once; we keep only a hash.' },
  { title: 'Point your client at Switchboard', body: 'Set the base URL of any OpenAI SDK or HTTP client to your Switchboard API.' },
  { title: 'Pick a model by id', body: 'Send provider/model ids. Streaming, usage and errors come back in the OpenAI format.' },
];

export default async function LandingPage() {
  const [origin, user, models] = await Promise.all([snippetOrigin(), currentUser().catch(() => null), landingModels()]);
  const apiBase = `${origin}/api/v1`;
  const signedIn = user !== null;

  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main">
        <section aria-labelledby="hero-heading" className="relative isolate overflow-hidden">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_50%_-10%,var(--accent-soft),transparent_70%)]"
          />
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 [mask-image:radial-gradient(50rem_28rem_at_50%_0%,black,transparent)] bg-[linear-gradient(to_right,var(--border)_1px,transparent_1px),linear-gradient(to_bottom,var(--border)_1px,transparent_1px)] bg-[size:3rem_3rem] opacity-60"
          />
          <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-16 pb-20 sm:px-6 sm:pt-24 lg:grid-cols-[1.05fr_1fr] lg:gap-14 lg:px-8 lg:pb-28">
            <div>
              <Badge tone="accent">
                <span aria-hidden="true" className="size-1.5 rounded-full bg-accent" />
                OpenAI-compatible API
              </Badge>
              <h1 id="hero-heading" className="mt-6 text-4xl font-semibold tracking-tight text-balance text-foreground sm:text-5xl lg:text-[3.5rem] lg:leading-[1.05]">
                One credential, many model providers
              </h1>
              <p className="mt-6 max-w-xl text-lg leading-8 text-pretty text-muted">
                Switchboard is a gateway for Claude, GPT, Gemini, DeepSeek and more. One API key, one prepaid balance
                and one endpoint — <code className="font-mono text-[0.9em] whitespace-nowrap text-foreground">POST /api/v1/chat/completions</code>{' '}
                — that your existing OpenAI code already speaks.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                {/* New visitors create an account first; the key page is where they end up, with a first request to paste. */}
                <ButtonLink href={signedIn ? '/keys' : '/sign-up?callbackUrl=%2Fkeys'} size="lg">
                  Get an API key
                  <span aria-hidden="true">→</span>
                </ButtonLink>
                <a href="/docs" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
                  API reference
                </a>
              </div>
              <p className="mt-6 text-sm text-muted">
                {signedIn ? 'Signed in. ' : 'Already have an account? '}
                <Link href={signedIn ? '/overview' : '/sign-in'} className="font-medium text-accent-text underline-offset-4 hover:underline">
                  {signedIn ? 'Open the console' : 'Sign in'}
                </Link>
              </p>
            </div>
            <div className="min-w-0">
              <CodeBlock title="Terminal" language="shell" code={curlSnippet(apiBase, models.example)} />
              {models.example === 'switchboard/echo' ? null : (
                <p className="mt-3 text-center text-xs text-muted lg:text-left">
                  Replace the model with <code className="font-mono">switchboard/echo</code> to test without spending
                  provider credit.
                </p>
              )}
            </div>
          </div>
        </section>

        <section aria-label="Providers" className="border-y border-border bg-surface">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-10 gap-y-3 px-4 py-6 text-sm text-muted sm:px-6 lg:px-8">
            <span className="font-medium text-foreground">Routes to</span>
            {['Anthropic', 'OpenAI', 'Google Gemini', 'DeepSeek', 'Any OpenAI-compatible endpoint'].map((name) => (
              <span key={name} className="font-semibold tracking-tight">
                {name}
              </span>
            ))}
          </div>
        </section>

        <Features />
        <Models usability={models.usability} />

        <section id="quickstart" aria-labelledby="quickstart-heading" className="scroll-mt-20">
          <div className="mx-auto grid max-w-6xl gap-12 px-4 py-20 sm:px-6 sm:py-28 lg:grid-cols-[0.9fr_1.1fr] lg:gap-16 lg:px-8">
            <div>
              <p className="text-sm font-semibold text-accent-text">Quickstart</p>
              <h2 id="quickstart-heading" className="mt-2 text-3xl font-semibold tracking-tight text-balance text-foreground sm:text-4xl">
                Keep the SDK you already use
              </h2>
              <p className="mt-4 text-base leading-7 text-muted">
                Base URL: <code className="font-mono text-sm break-all text-foreground">{apiBase}</code>
              </p>
              <ol className="mt-10 space-y-8">
                {steps.map((step, index) => (
                  <li key={step.title} className="flex gap-4">
                    <span
                      aria-hidden="true"
                      className="flex size-8 shrink-0 items-center justify-center rounded-full border border-accent-soft-border bg-accent-soft text-sm font-semibold text-accent-text"
                    >
                      {index + 1}
                    </span>
                    <div>
                      <h3 className="font-semibold text-foreground">{step.title}</h3>
                      <p className="mt-1 text-sm leading-6 text-muted">{step.body}</p>
                    </div>
                  </li>
                ))}
              </ol>
            </div>
            <CodeTabs
              label="OpenAI SDK examples"
              className="min-w-0 self-start"
              tabs={[
                { id: 'typescript', label: 'TypeScript', code: typescriptSnippet(apiBase, models.example), content: <HighlightedCode language="typescript" code={typescriptSnippet(apiBase, models.example)} /> },
                { id: 'python', label: 'Python', code: pythonSnippet(apiBase, models.second), content: <HighlightedCode language="python" code={pythonSnippet(apiBase, models.second)} /> },
              ]}
            />
          </div>
        </section>

        <section aria-labelledby="cta-heading" className="px-4 pb-24 sm:px-6 lg:px-8">
          <div className="relative isolate mx-auto max-w-6xl overflow-hidden rounded-3xl bg-zinc-950 px-6 py-16 text-center shadow-2xl ring-1 ring-white/10 sm:px-16">
            <div
              aria-hidden="true"
              className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_20rem_at_50%_120%,var(--color-indigo-600),transparent_70%)] opacity-70"
            />
            <h2 id="cta-heading" className="text-3xl font-semibold tracking-tight text-balance text-white sm:text-4xl">
              Every model, one bill. Start in minutes.
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-base leading-7 text-zinc-300">
              Create an account, add credit and make your first call with the key you create — no provider accounts
              needed.
            </p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              {signedIn ? null : (
                <ButtonLink href="/sign-up?callbackUrl=%2Fkeys" size="lg" variant="on-dark">
                  Create an account
                </ButtonLink>
              )}
              <ButtonLink href="/keys" size="lg" variant="ghost-on-dark">
                Go to the console <span aria-hidden="true">→</span>
              </ButtonLink>
            </div>
          </div>
        </section>
      </main>
      <SiteFooter signedIn={signedIn} />
    </>
  );
}
