// `npm run cli -- <command> [options] [--json]`. Works with or without the server running: on PostgreSQL
// it opens the database itself; on the embedded database it goes through the running server when there is
// one (see server-link.ts), else opens the data directory itself.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { localOperatorName } from '@/server/audit/audit-actors';
import { closeDatabase, openDatabase, setDatabase } from '@/server/db';
import { env, EnvError } from '@/server/env';
import { AppError, isAppError } from '@/server/errors';
import { formatZodIssues, isZodError } from '@/server/validation/zod-error';
import { COMMANDS, findCommand, runCommand, type CommandResult } from './commands';
import { CLI_ENDPOINT, readLiveServerInfo } from './server-link';

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return [
    'Switchboard CLI',
    '',
    'Usage: npm run cli -- <command> [options] [--json]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  --json   print the result as JSON (e.g. key:create prints {"key": "...", "id": "..."})',
    '  --help   show this help, or a command\'s help: npm run cli -- key:create --help',
    '',
    'The database is DATABASE_URL when set, else the embedded one in DATA_DIR (default ./.data).',
  ].join('\n');
}

function commandHelp(name: string): string {
  const c = findCommand(name)!;
  const opts = Object.entries(c.options).map(([k, o]) => `  --${k.padEnd(10)} ${o.description}`);
  if (c.positional) opts.unshift(`  ${c.positional.name.toUpperCase().padEnd(12)} ${c.positional.description}`);
  return [`${c.summary}`, '', `Usage: npm run cli -- ${c.usage} [--json]`, ...(opts.length ? ['', 'Options:', ...opts] : [])].join('\n');
}

/** A database URL as it may be shown: the password masked. */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'unparsable';
  }
}

async function viaServer(server: { pid: number; port: number; token: string }, dataDir: string, name: string, args: Record<string, unknown>): Promise<CommandResult> {
  const res = await fetch(`http://127.0.0.1:${server.port}${CLI_ENDPOINT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switchboard-cli-token': server.token },
    body: JSON.stringify({ command: name, args, operator: localOperatorName() }),
  }).catch((err: Error) => {
    // A server killed without cleaning up, its pid since reused by another process (containers reuse low pids).
    const cause = (err.cause as NodeJS.ErrnoException | undefined)?.code ?? err.message;
    throw new AppError(
      'service_unavailable',
      `The Switchboard server recorded in ${path.join(dataDir, 'server.json')} (pid ${server.pid}, port ${server.port}) does not answer (${cause}). If no server is running, delete that file and run the command again.`,
    );
  });
  const body = (await res.json()) as CommandResult | { error: { message: string; metadata?: { error_type?: string } } };
  if ('error' in body) throw new AppError((body.error.metadata?.error_type as 'bad_request') ?? 'internal', body.error.message);
  return body;
}

async function main(argv: string[]): Promise<number> {
  const name = argv[0];
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return name ? 0 : 1;
  }
  const cmd = findCommand(name);
  if (!cmd) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  const options = { json: { type: 'boolean' as const }, help: { type: 'boolean' as const, short: 'h' }, ...cmd.options };
  let values: Record<string, unknown>;
  try {
    const parsed = parseArgs({ args: argv.slice(1), options, strict: true, allowPositionals: !!cmd.positional });
    values = parsed.values;
    if (cmd.positional) {
      if (parsed.positionals.length > 1) throw new Error(`Unexpected argument "${parsed.positionals[1]}"`);
      if (parsed.positionals.length === 1) values[cmd.positional.name] = parsed.positionals[0];
    }
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${commandHelp(name)}`);
    return 2;
  }
  if (values.help) {
    console.log(commandHelp(name));
    return 0;
  }
  const json = !!values.json;
  delete values.json;
  if (cmd.prepare) values = cmd.prepare(values);

  let result: CommandResult;
  const e = env();
  // The embedded database is held by the server (PGlite allows one process); commands reading the server's
  // memory go there whatever the database.
  const server = e.embedded || cmd.inServer ? readLiveServerInfo(e.dataDir) : null;
  if (server) {
    result = await viaServer(server, e.dataDir, name, values);
  } else if (cmd.inServer) {
    result = await cmd.inServer.withoutServer(values);
  } else {
    const database = await openDatabase({ databaseUrl: e.DATABASE_URL, dataDir: e.dataDir, poolSize: 2, log: json ? () => {} : (l) => console.error(l) }).catch((err: unknown) => {
      // pg's and fs's own texts ("connect ECONNREFUSED 127.0.0.1:5432", "EEXIST: file already exists, mkdir …")
      // do not say which setting to fix.
      if (isAppError(err)) throw err;
      const where = e.DATABASE_URL ? `the database at DATABASE_URL (${withoutPassword(e.DATABASE_URL)})` : `the embedded database in DATA_DIR (${e.dataDir})`;
      throw new AppError('service_unavailable', `Cannot open ${where}: ${(err as Error)?.message ?? err}`);
    });
    setDatabase(database);
    try {
      result = await runCommand(name, values);
    } finally {
      await closeDatabase();
    }
  }
  console.log(json ? JSON.stringify(result.data) : result.text);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof EnvError) console.error(err.message);
    else if (isAppError(err)) console.error(`Error: ${err.message}`);
    else if (isZodError(err)) console.error(`Error: ${formatZodIssues(err.issues).message}`);
    else console.error(`Error: ${err?.message ?? err}`);
    process.exit(1);
  },
);
