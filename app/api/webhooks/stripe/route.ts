// Stripe's webhook endpoint. Not an /api/v1 route: no bearer credential, the signature on the raw body is
// the authentication (server/billing/stripe/handle-stripe-webhook.ts).
import { systemActor } from '@/server/audit/audit-actors';
import { withAuditActor } from '@/server/audit/audit-context';
import { handleStripeWebhook } from '@/server/billing/stripe/handle-stripe-webhook';
import { errorResponse, json, readRequestText } from '@/server/http/api-route';
import { requestIdFor } from '@/server/http/request-id';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  try {
    // The exact bytes Stripe signed: read as text, never parsed and re-serialised before verification.
    const payload = await readRequestText(request);
    // What the event changes (payments, plans, saved cards) is recorded in the audit log as the system's.
    const outcome = await withAuditActor(systemActor('stripe webhook', request.headers), () => handleStripeWebhook({ payload, signature: request.headers.get('stripe-signature') }));
    return json(outcome, 200, { 'x-request-id': requestId });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
