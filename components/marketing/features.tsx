import type { ReactNode } from 'react';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { SectionHeading } from './section-heading';

// Hand-drawn 24px outline icons: six glyphs do not justify an icon library.
const icon = (paths: ReactNode) => (
  <svg viewBox="0 0 24 24" aria-hidden="true" className="size-5 fill-none stroke-current stroke-[1.75]" strokeLinecap="round" strokeLinejoin="round">
    {paths}
  </svg>
);

const features = [
  {
    title: 'Drop-in OpenAI compatibility',
    description:
      'Same request and response shapes as the OpenAI Chat Completions API, streaming included. Change the base URL, keep your code.',
    icon: icon(<path d="M8 7l-5 5 5 5M16 7l5 5-5 5M13.5 4l-3 16" />),
  },
  {
    title: 'One key for every provider',
    description:
      'Provider credentials stay on the server. Your apps hold a single Switchboard key each — scoped, hashed at rest, revocable in one click.',
    icon: icon(
      <>
        <circle cx="8" cy="15" r="4" />
        <path d="M11 12l8-8M16 7l2.5 2.5M14 9l2 2" />
      </>,
    ),
  },
  {
    title: 'Prepaid credits, exact metering',
    description:
      'Every request reserves credit up front and settles on the tokens actually used, so spend can never run past your balance.',
    icon: icon(
      <>
        <ellipse cx="12" cy="6" rx="7" ry="3" />
        <path d="M5 6v6c0 1.7 3.1 3 7 3s7-1.3 7-3V6M5 12v6c0 1.7 3.1 3 7 3s7-1.3 7-3v-6" />
      </>,
    ),
  },
  {
    title: 'Streaming from every model',
    description:
      'Server-sent events with the same chunk format whichever provider answers, so one client loop renders them all.',
    icon: icon(<path d="M4 7h10M4 12h16M4 17h7" />),
  },
  {
    title: 'Organizations and members',
    description:
      'Share one balance across a team. Invite members, give each project its own key and see who spent what.',
    icon: icon(
      <>
        <circle cx="9" cy="8" r="3.5" />
        <path d="M2.5 20c.8-3.5 3.4-5.5 6.5-5.5s5.7 2 6.5 5.5M16 4.6a3.5 3.5 0 010 6.8M18 14.8c1.8.7 3 2.5 3.5 5.2" />
      </>,
    ),
  },
  {
    title: 'Usage you can read',
    description:
      'Requests, tokens and spend per key and per model in the console, with per-key rate limits to keep one app from starving the rest.',
    icon: icon(<path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />),
  },
];

export function Features() {
  return (
    <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6 sm:py-28 lg:px-8">
      <SectionHeading id="features-heading" eyebrow="Why Switchboard" title="The boring parts of multi‑model apps, done">
        Stop juggling five dashboards, five billing accounts and five SDKs. Switchboard gives your team one place to
        authenticate, meter and pay for every model call.
      </SectionHeading>
      <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {features.map((feature) => (
          <li key={feature.title}>
            <Card className="h-full">
              <div className="flex size-10 items-center justify-center rounded-lg border border-accent-soft-border bg-accent-soft text-accent-text">
                {feature.icon}
              </div>
              <CardTitle className="mt-5">{feature.title}</CardTitle>
              <CardDescription>{feature.description}</CardDescription>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
