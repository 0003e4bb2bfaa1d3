// The app's pages read from the filesystem (app/**/page.tsx), so the accessibility specs check a new page
// without anyone adding it to a list.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const APP_DIR = path.join(process.cwd(), 'app');

/**
 * Each page.tsx under `dir` as its route (`/keys`, `/models/[...id]`): route groups `(x)` add no segment,
 * private (`_x`) and parallel (`@x`) folders are skipped. Sorted.
 */
export function pageRoutes(dir = APP_DIR, prefix = ''): string[] {
  const routes: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === 'page.tsx') routes.push(prefix || '/');
    if (!entry.isDirectory() || entry.name.startsWith('_') || entry.name.startsWith('@')) continue;
    const segment = /^\(.*\)$/.test(entry.name) ? '' : `/${entry.name}`;
    routes.push(...pageRoutes(path.join(dir, entry.name), prefix + segment));
  }
  return routes.sort();
}

/** The operators' pages: every route under /admin, wherever its page.tsx sits in app/. */
export const adminRoutes = () => pageRoutes().filter((route) => route === '/admin' || route.startsWith('/admin/'));
