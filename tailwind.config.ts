// Tailwind 4 reads its theme from CSS (`app/globals.css`, `@theme`); this file is loaded from there with
// `@config` and holds what is easier to express in TypeScript: where classes live and dark mode.
import type { Config } from 'tailwindcss';

export default {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  darkMode: 'media',
} satisfies Config;
