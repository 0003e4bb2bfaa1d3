// The OpenAPI document is generated from the same zod schemas that validate requests, so it cannot drift.
// Each domain declares its endpoints in `server/<domain>/<domain>.openapi.ts` with defineEndpoint(); the
// document (document.ts) imports those files and assembles GET /api/v1/openapi.json.
import { z } from 'zod';

export interface EndpointSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /**
   * Stable operation name for client generators. Default: the method and the path in camelCase, each
   * path parameter as By<Name> (GET /models/{author}/{slug} → getModelsByAuthorBySlug). Set it where a
   * well-known name exists (OpenAI's createChatCompletion) — and never change it once published.
   */
  operationId?: string;
  /** OpenAPI path with {params}, relative to /api/v1, e.g. "/organizations/{id}/members". */
  path: string;
  /** The path is relative to /api instead (the probes /api/health and /api/ready). */
  outsideV1?: boolean;
  summary: string;
  description?: string;
  tags: string[];
  /** false for public endpoints (models, health). */
  auth?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Media types the body may come as (default application/json); e.g. OAuth endpoints also take forms. */
  bodyContentTypes?: string[];
  /** The 2xx response body. */
  response?: z.ZodType;
  /** Status of the success response (default 200). */
  status?: number;
  /** Error statuses this endpoint may answer besides 400/401/500. */
  errors?: number[];
  /** A status whose body is not (only) the shared Error, e.g. OAuth's {"error": "authorization_pending"}. */
  errorBodies?: Record<number, { description?: string; body: z.ZodType }>;
  /** Non-JSON success response (e.g. text/event-stream). */
  responseContentType?: string;
  /**
   * The endpoint can answer a `text/event-stream` (e.g. `stream: true` in the body). The success response
   * then lists that media type beside the JSON `response`, described by `sseDescription` (the event
   * names and data shapes, the terminator and how a mid-stream error looks).
   */
  stream?: boolean;
  sseDescription?: string;
  /** Other text media types the success response may come as (e.g. `text/csv`), each with its description. */
  textAlternatives?: Record<string, string>;
}

const endpoints: EndpointSpec[] = [];

export function defineEndpoint(spec: EndpointSpec): EndpointSpec {
  endpoints.push(spec);
  return spec;
}

export function registeredEndpoints(): readonly EndpointSpec[] {
  return endpoints;
}

/** The spec's error body, shared by every error response. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.union([z.number().int(), z.string()]).describe('HTTP status, or a string identifier such as context_length_exceeded'),
      message: z.string(),
      metadata: z.record(z.string(), z.unknown()).describe('Extra context: error_type, request_id, provider details…'),
    }),
  })
  .meta({ id: 'Error' });
