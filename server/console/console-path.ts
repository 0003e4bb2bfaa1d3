/** Request header set by proxy.ts on console pages: the path (and query) the visitor asked for. */
export const CONSOLE_PATH_HEADER = 'x-switchboard-console-path';
