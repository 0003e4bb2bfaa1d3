// POST /internal/cli: the CLI's way into an embedded database this server holds, and into this server's memory
// (see server/cli/server-link.ts).
// Loopback only, and only with the token the server wrote into DATA_DIR at start.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { cliActor } from '@/server/audit/audit-actors';
import { findCommand, runCommand } from '@/server/cli/commands';
import { cliTokenMatches } from '@/server/cli/server-link';
import { AppError } from '@/server/errors';
import { refreshAdmissionRevisions } from '@/server/gateway/admission-revision';
import { newRequestId } from './request-id';
import { sendNodeError, sendNodeJson } from './node-response';
import { readNodeBody } from './read-body';

const bodySchema = z.object({
  command: z.string(),
  args: z.record(z.string(), z.unknown()).default({}),
  /** The OS account running the CLI, for the audit log (anyone able to reach this endpoint holds the token). */
  operator: z.string().max(100).optional(),
});

/**
 * @param memoryOnly on PostgreSQL the CLI opens the database itself: take only the commands that read this
 *   server's memory (upstream:health), so the token opens nothing the database credentials do not.
 */
export async function handleCliRequest(req: IncomingMessage, res: ServerResponse, token: string, memoryOnly = false): Promise<void> {
  const requestId = newRequestId();
  try {
    const remote = req.socket.remoteAddress ?? '';
    const loopback = remote === '127.0.0.1' || remote === '::1' || remote === '::ffff:127.0.0.1';
    if (!token || !loopback || req.method !== 'POST') throw new AppError('not_found', 'Not found');
    if (!cliTokenMatches(token, req.headers['x-switchboard-cli-token'] as string | undefined)) throw new AppError('unauthorized', 'Bad CLI token');
    const parsed = bodySchema.safeParse(JSON.parse((await readNodeBody(req, 1_000_000)).toString('utf8')));
    if (!parsed.success) throw new AppError('bad_request', 'Malformed CLI request');
    if (memoryOnly && !findCommand(parsed.data.command)?.inServer) throw new AppError('forbidden', `"${parsed.data.command}" runs in the CLI on PostgreSQL, not in the server`);
    const result = await runCommand(parsed.data.command, parsed.data.args, cliActor(parsed.data.operator || undefined, remote)).finally(refreshAdmissionRevisions);
    sendNodeJson(res, 200, result, requestId);
  } catch (err) {
    sendNodeError(res, err instanceof SyntaxError ? new AppError('bad_request', 'Malformed CLI request') : err, requestId);
  }
}
