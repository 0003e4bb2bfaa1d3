// The sandbox checkout form's target: applies the buyer's choice, then sends the browser on (303) to the
// return page, or back to the form with an error code.
import { systemActor } from '@/server/audit/audit-actors';
import { withAuditActor } from '@/server/audit/audit-context';
import { publicOrigin } from '@/server/http/public-origin';
import { submitSandboxCheckout } from '@/server/billing/sandbox/sandbox-checkout';
import { errorResponse, parseForm, parseWith } from '@/server/http/api-route';
import { requestIdFor } from '@/server/http/request-id';
import { safeId } from '@/server/validation/fields';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const id = parseWith(safeId(), (await context.params).id);
    const form = await parseForm(request);
    const field = (name: string) => String(form.get(name) ?? '');
    const origin = publicOrigin(request.headers);
    // The sandbox stands in for the provider's hosted page: what it settles is the (payment) system's doing.
    const result = await withAuditActor(systemActor('sandbox checkout', request.headers), () =>
      submitSandboxCheckout({ sessionId: id, action: field('action') === 'cancel' ? 'cancel' : 'pay', cardNumber: field('card_number'), expiry: field('expiry'), cvc: field('cvc'), origin }),
    );
    const location = 'redirect' in result ? result.redirect : `${origin}/sandbox/checkout/${encodeURIComponent(id)}?error=${result.error}`;
    return new Response(null, { status: 303, headers: { location } });
  } catch (err) {
    return errorResponse(err, requestIdFor(request));
  }
}
