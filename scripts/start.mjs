// `npm start`: builds on first run (or when sources are newer than the build), then runs the server.
// The server applies migrations, seeds the catalog and, on an empty embedded database, creates the demo account.
import { spawn, spawnSync } from 'node:child_process';
import { buildReason } from './needs-build.mjs';
import { SERVER_ENV, serverNodeArgs } from './server-node-args.mjs';

const reason = buildReason(process.cwd());
if (reason) {
  console.log(`Building Switchboard first (${reason}; about a minute)…`);
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('Build failed; see the output above.');
    process.exit(r.status ?? 1);
  }
}
const child = spawn(process.execPath, [...serverNodeArgs(process.env), 'dist/server.js'], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...SERVER_ENV, ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
