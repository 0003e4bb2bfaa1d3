// A small set of stroke icons (24×24 grid, currentColor), decorative unless labelled by their button.
import type { ComponentProps } from 'react';
import { cx } from '@/components/ui/cx';

const paths = {
  overview: 'M3 12l9-8 9 8M5 10v10h5v-6h4v6h5V10',
  playground: 'M4 5h16v11H8l-4 4V5zM9 10h6M9 13h3',
  key: 'M15 7a3 3 0 11-3 3M12.5 12.5L4 21M7 18l2 2M9.5 15.5l2 2M21 7a6 6 0 11-12 0 6 6 0 0112 0z',
  usage: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  models: 'M12 3l8 4.5v9L12 21l-8-4.5v-9L12 3zM12 12l8-4.5M12 12v9M12 12L4 7.5',
  organization: 'M4 21V5a2 2 0 012-2h8a2 2 0 012 2v16M16 9h2a2 2 0 012 2v10M2 21h20M8 7h4M8 11h4M8 15h4',
  billing: 'M3 6h18v12H3zM3 10h18M7 15h3',
  plans: 'M12 3l9 5-9 5-9-5 9-5zM3 13l9 5 9-5M3 17l9 5 9-5',
  sessions: 'M4 5h16v10H4zM2 19h20M9 15v4M15 15v4',
  menu: 'M4 6h16M4 12h16M4 18h16',
  selector: 'M8 9l4-4 4 4M8 15l4 4 4-4',
  check: 'M5 12.5l4.5 4.5L19 7',
  plus: 'M12 5v14M5 12h14',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  send: 'M4 12l16-8-6 16-2-7-8-1z',
  stop: 'M7 7h10v10H7z',
  spark: 'M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0',
  mail: 'M3 6h18v12H3zM3 7l9 6 9-6',
  warning: 'M12 4l9 16H3l9-16zM12 10v4M12 17v.5',
  shield: 'M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6l8-3z',
  server: 'M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01',
  list: 'M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01',
  plug: 'M9 3v5M15 3v5M6 8h12v3a6 6 0 01-12 0V8zM12 17v4',
  webhook: 'M9 8a3 3 0 116 0c0 1.5-1 2.5-2 3l-3 5M6 14a3 3 0 102.8 4H15M18 17a3 3 0 10-1.5-5.6L13.5 7',
  log: 'M5 4h14v16H5zM9 8h6M9 12h6M9 16h4',
  lock: 'M6 11h12v10H6zM8 11V8a4 4 0 018 0v3M12 15v2',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className, ...props }: ComponentProps<'svg'> & { name: IconName }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className={cx('size-5 shrink-0 fill-none stroke-current', className)} strokeWidth={1.6} strokeLinecap="round" strokeLinejoin="round" {...props}>
      <path d={paths[name]} />
    </svg>
  );
}
