// Stripe's webhook endpoint. Not an /api/v1 route: no bearer credential, the signature on the raw body is
// the authentication (server/billing/stripe/handle-stripe-webhook.ts).
import { handleStripeWebhook } from '@/server/billing/stripe/handle-stripe-webhook';
import { errorResponse, json, readRequestText } from '@/server/http/api-route';
import { requestIdFor } from '@/server/http/request-id';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  try {
    // The exact bytes Stripe signed: read as text, never parsed and re-serialised before verification.
    const payload = await readRequestText(request);
    const outcome = await handleStripeWebhook({ payload, signature: request.headers.get('stripe-signature') });
    return json(outcome, 200, { 'x-request-id': requestId });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
