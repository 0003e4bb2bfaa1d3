// A standalone fake DNS server for end-to-end runs (scripts/e2e.mjs starts it with tsx and gives its address
// to the server under test as SSO_DNS_SERVERS). Specs publish TXT records through a small HTTP control
// endpoint: PUT <control>/txt/<name> with a JSON array of strings (an empty array removes the name).
// Prints {"dns": "127.0.0.1:N", "control": "http://127.0.0.1:M"} on its first stdout line.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeDns } from './fake-dns';

async function main() {
  const dns = await startFakeDns();
  const control = http.createServer(async (req, res) => {
    const m = /^\/txt\/([A-Za-z0-9._-]{1,253})$/.exec(req.url ?? '');
    if (req.method !== 'PUT' || !m) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const values = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return void res.writeHead(400).end('a JSON array of strings');
    if (values.length) dns.txt.set(m[1].toLowerCase(), values);
    else dns.txt.delete(m[1].toLowerCase());
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => control.listen(0, '127.0.0.1', r));
  process.stdout.write(JSON.stringify({ dns: dns.address, control: `http://127.0.0.1:${(control.address() as AddressInfo).port}` }) + '\n');
  const stop = () => void Promise.all([dns.close(), new Promise((r) => control.close(r))]).then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
