#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `BENCH_PROFILE=1 npm run bench` or `node --cpu-prof`): self time per
// function and, with --by-file, per source file; the top N (default 40). Usage:
//   node scripts/cpuprofile-top.mjs FILE.cpuprofile [--top N] [--by-file] [--inclusive]
// --inclusive counts a sample for every function on its stack (total time, not self time).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
if (!file) {
  console.error('usage: node scripts/cpuprofile-top.mjs FILE.cpuprofile [--top N] [--by-file]');
  process.exit(2);
}
const top = Number(args[args.indexOf('--top') + 1]) || 40;
const byFile = args.includes('--by-file');
const inclusive = args.includes('--inclusive');
const prof = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < prof.samples.length; i++) dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);

const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (n) => {
  const cf = n.callFrame;
  const where = cf.url ? cf.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '') : '(native)';
  return byFile ? where : `${cf.functionName || '(anonymous)'}  ${where}:${cf.lineNumber + 1}`;
};
const self = new Map();
for (const [id, us] of dt) {
  const keys = new Set();
  for (let n = nodes.get(id); n; n = inclusive ? nodes.get(parent.get(n.id)) : undefined) keys.add(keyOf(n));
  for (const key of keys) self.set(key, (self.get(key) ?? 0) + us);
}
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms`);
for (const [k, us] of rows) console.log(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
