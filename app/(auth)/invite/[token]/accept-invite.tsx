'use client';

import { useActionState } from 'react';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { acceptInviteAction, openOrganizationAction, type AcceptInviteState } from './actions';

export function AcceptInvite({ token }: { token: string }) {
  const [state, action, pending] = useActionState<AcceptInviteState, FormData>(acceptInviteAction, {});
  if (state.joined) {
    return (
      <>
        <FormAlert tone="success" className="mt-5">
          <strong className="font-semibold">Welcome to {state.joined.organization}.</strong> You joined as {state.joined.role}.
        </FormAlert>
        <form action={openOrganizationAction} className="mt-4">
          <input type="hidden" name="organization_id" value={state.joined.organizationId} />
          <SubmitButton pendingLabel="Opening…" className="w-full">
            Open {state.joined.organization}
          </SubmitButton>
        </form>
      </>
    );
  }
  return (
    <form action={action} className="mt-5 space-y-4">
      {state.error ? <FormAlert>{state.error}</FormAlert> : null}
      <input type="hidden" name="token" value={token} />
      <SubmitButton pending={pending} pendingLabel="Joining…" className="w-full">
        Accept invite
      </SubmitButton>
    </form>
  );
}
