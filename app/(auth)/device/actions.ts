'use server';

import { currentUser } from '@/server/auth/current-user';
import { decideDeviceAuthorization } from '@/server/auth/decide-device-authorization';
import { isAppError } from '@/server/errors';

export interface DeviceDecisionState {
  decided?: 'approved' | 'denied';
  error?: string;
}

/** Approve or Deny on the device page; the signed-in user is the one the device will act as. */
export async function decideDeviceAction(_prev: DeviceDecisionState, form: FormData): Promise<DeviceDecisionState> {
  const user = await currentUser();
  if (!user || !user.acceptedTerms) return { error: 'Your session ended. Reload the page and sign in again.' };
  const approve = form.get('decision') === 'approve';
  try {
    await decideDeviceAuthorization({ userCode: String(form.get('user_code') ?? ''), userId: user.id, approve });
    return { decided: approve ? 'approved' : 'denied' };
  } catch (err) {
    if (isAppError(err)) return { error: err.message };
    throw err;
  }
}
