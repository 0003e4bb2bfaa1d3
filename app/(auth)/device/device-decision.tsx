'use client';

import { useActionState } from 'react';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { decideDeviceAction, type DeviceDecisionState } from './actions';

export function DeviceDecision({ userCode }: { userCode: string }) {
  const [state, action, pending] = useActionState<DeviceDecisionState, FormData>(decideDeviceAction, {});
  if (state.decided === 'approved') {
    return (
      <FormAlert tone="success" className="mt-6">
        <strong className="font-semibold">Device approved.</strong> You can close this tab and return to your terminal or editor.
      </FormAlert>
    );
  }
  if (state.decided === 'denied') {
    return (
      <FormAlert tone="info" className="mt-6">
        <strong className="font-semibold">Request denied.</strong> The device was not given access.
      </FormAlert>
    );
  }
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error ? <FormAlert>{state.error}</FormAlert> : null}
      <input type="hidden" name="user_code" value={userCode} />
      <div className="flex gap-3">
        <SubmitButton name="decision" value="approve" pending={pending} pendingLabel="Working…" className="flex-1">
          Approve
        </SubmitButton>
        <SubmitButton name="decision" value="deny" variant="secondary" pending={pending} pendingLabel="Working…" className="flex-1">
          Deny
        </SubmitButton>
      </div>
    </form>
  );
}
