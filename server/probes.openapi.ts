import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';

const tags = ['Probes'];

defineEndpoint({
  method: 'get',
  path: '/health',
  outsideV1: true,
  operationId: 'getHealth',
  summary: 'Liveness: the process answers (GET /api/health)',
  description: 'For a liveness probe: 200 while the process serves and its database answers, 503 `degraded` when the database does not (restarting the process rarely helps then: use /api/ready to take it out of rotation instead).',
  tags,
  auth: false,
  response: z.object({
    status: z.enum(['ok', 'degraded']),
    database: z.object({ kind: z.enum(['pglite', 'postgres']).optional(), ok: z.boolean(), latency_ms: z.number().optional(), error: z.string().optional() }),
  }),
  errorBodies: { 503: { description: 'The database does not answer', body: z.object({ status: z.literal('degraded'), database: z.object({ ok: z.literal(false), error: z.string() }) }) } },
});

defineEndpoint({
  method: 'get',
  path: '/ready',
  outsideV1: true,
  operationId: 'getReady',
  summary: 'Readiness: may this instance take traffic? (GET /api/ready)',
  description:
    'For a load balancer’s or orchestrator’s readiness probe. 200 when the database answers, every migration this build ships is applied and the routing configuration is loaded. ' +
    '503 otherwise (`metadata.error_type` service_unavailable), with `metadata.reason`: `database_unreachable`, `migrations_pending`, `configuration_not_loaded`, or `shutting_down` (from SIGTERM on, while streams in flight finish).',
  tags,
  auth: false,
  response: z.object({
    status: z.literal('ready'),
    database: z.object({ kind: z.enum(['pglite', 'postgres']), latency_ms: z.number() }),
    migrations: z.object({ applied: z.number().int().describe('Migrations recorded as applied in _prisma_migrations') }),
    configuration: z.object({ models: z.number().int().describe('Models in the routing table') }),
  }),
  errors: [503],
});
