#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `BENCH_PROFILE=1 npm run bench` or `node --cpu-prof`): self time per
// function and, with --by-file, per source file; the top N (default 40). Usage:
//   node scripts/cpuprofile-top.mjs FILE.cpuprofile [--top N] [--by-file] [--inclusive] [--from S] [--to S] [--timeline]
// --inclusive counts a sample for every function on its stack (total time, not self time).
// --from/--to keep the samples between S seconds after the profile's start (e.g. only the load, not start-up);
// --timeline prints the busy (non-idle) milliseconds of each second, to find that window.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
if (!file) {
  console.error('usage: node scripts/cpuprofile-top.mjs FILE.cpuprofile [--top N] [--by-file]');
  process.exit(2);
}
const top = Number(args[args.indexOf('--top') + 1]) || 40;
const secondsArg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const fromS = secondsArg('--from', 0);
const toS = secondsArg('--to', Infinity);
const timeline = args.includes('--timeline');
const byFile = args.includes('--by-file');
const inclusive = args.includes('--inclusive');
const prof = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = new Map();
const busyPerSecond = [];
let at = 0;
for (let i = 0; i < prof.samples.length; i++) {
  const d = prof.timeDeltas[i] ?? 0;
  at += d;
  const s = at / 1e6;
  if (timeline && nodes.get(prof.samples[i]).callFrame.functionName !== '(idle)') busyPerSecond[Math.floor(s)] = (busyPerSecond[Math.floor(s)] ?? 0) + d;
  if (s < fromS || s > toS) continue;
  dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + d);
}
if (timeline) {
  for (let s = 0; s < busyPerSecond.length; s++) console.log(`${String(s).padStart(4)} s  ${((busyPerSecond[s] ?? 0) / 1000).toFixed(0).padStart(5)} ms busy`);
  process.exit(0);
}
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
