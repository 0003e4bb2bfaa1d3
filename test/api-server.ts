// Test support: serves the real Next route handlers (app/api/**/route.ts) on a node:http server, with
// Next's file-system routing rules (static segments before [param] before [...catchAll]), so REST routes
// are tested through HTTP without a Next build. The chat endpoint is served by the fast path, as in
// production, with a runtime of its own (built when the server starts, from the environment then). Handlers receive the same (Request, { params: Promise }) arguments Next gives them.
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { fastPathHandlerFor } from '@/server/http/fast-path-routes';
import { createRuntime, type Runtime, type RuntimeOptions } from '@/server/runtime/runtime';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;

interface Route {
  segments: string[];
  file: string;
  module?: Record<string, Handler>;
}

const APP_DIR = path.resolve(__dirname, '..', 'app');

function findRoutes(dir: string, segments: string[] = []): Route[] {
  const out: Route[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      // Route groups "(console)" do not appear in the URL.
      out.push(...findRoutes(full, /^\(.*\)$/.test(name) ? segments : [...segments, name]));
    } else if (name === 'route.ts') out.push({ segments, file: full });
  }
  return out;
}

function rank(seg: string): number {
  if (seg.startsWith('[...')) return 2;
  if (seg.startsWith('[')) return 1;
  return 0;
}

function match(route: Route, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i];
    if (seg.startsWith('[...')) {
      if (i >= parts.length) return null;
      params[seg.slice(4, -1)] = parts.slice(i).map(decodeURIComponent);
      return params;
    }
    if (i >= parts.length) return null;
    if (seg.startsWith('[')) params[seg.slice(1, -1)] = decodeURIComponent(parts[i]);
    else if (seg !== parts[i]) return null;
  }
  return parts.length === route.segments.length ? params : null;
}

export interface ApiServer {
  /** e.g. http://127.0.0.1:1234 — routes are at `${origin}/api/v1/...`. */
  origin: string;
  /** The chat fast path's runtime: its settlement queue, rate limiter, providers. */
  runtime: Runtime;
  close(): Promise<void>;
}

/** @param runtimeOptions for the chat fast path's runtime (e.g. a routing configuration of the test's own). */
export async function startApiServer(runtimeOptions: RuntimeOptions = {}): Promise<ApiServer> {
  const routes = findRoutes(APP_DIR).sort((a, b) => {
    // More specific first: compare segment by segment (static < dynamic < catch-all), then longer first.
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const d = rank(a.segments[i]) - rank(b.segments[i]);
      if (d !== 0) return d;
    }
    return b.segments.length - a.segments.length;
  });

  const runtime = createRuntime(runtimeOptions);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const fastPath = fastPathHandlerFor(url.pathname);
    if (fastPath && req.method === 'POST') return void fastPath(runtime, req, res);
    const parts = url.pathname.split('/').filter(Boolean);
    for (const route of routes) {
      const params = match(route, parts);
      if (!params) continue;
      route.module ??= (await import(route.file)) as Record<string, Handler>;
      const handler = route.module[req.method ?? 'GET'];
      if (!handler) {
        res.writeHead(405, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 405, message: 'Method not allowed', metadata: {} } }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      // A NextRequest, as Next hands route handlers (next-auth reads its nextUrl).
      const request = new NextRequest(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
      try {
        const response = await handler(request, { params: Promise.resolve(params) });
        const out: Record<string, string | string[]> = {};
        response.headers.forEach((v, k) => (out[k] = v));
        if (response.headers.has('set-cookie')) out['set-cookie'] = response.headers.getSetCookie(); // each cookie its own header
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (err) {
        console.error(err);
        res.writeHead(500).end();
      }
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'No route', metadata: {} } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    runtime,
    close: async () => {
      await new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
      await runtime.close();
    },
  };
}
