'use client';

import { useActionState } from 'react';
import { ApproveDenyForm } from '@/components/auth/approve-deny-form';
import { FormAlert } from '@/components/auth/form-alert';
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
  return <ApproveDenyForm action={action} error={state.error} pending={pending} fields={{ user_code: userCode }} />;
}
