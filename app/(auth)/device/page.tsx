import type { Metadata } from 'next';
import { AuthCard } from '@/components/auth/auth-card';
import { FormAlert } from '@/components/auth/form-alert';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { findDeviceAuthorization, type PendingDeviceDto } from '@/server/auth/decide-device-authorization';
import { isAppError } from '@/server/errors';
import { param, pathWithQuery, requireUser } from '../require-user';
import { DeviceDecision } from './device-decision';
import { UserCodeForm } from './user-code-form';

export const metadata: Metadata = { title: 'Connect a device' };

const KIND: Record<PendingDeviceDto['client_kind'], string> = { cli: 'Command-line client', editor: 'Editor extension', other: 'Application' };

/** Device approval: the code a CLI or editor shows, confirmed by the signed-in user. */
export default async function DevicePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const userCode = param((await searchParams).user_code)?.trim();
  const here = pathWithQuery('/device', { user_code: userCode });
  const user = await requireUser(here);

  if (!userCode) {
    return (
      <AuthCard title="Connect a device" description="Enter the code shown by your terminal or editor.">
        <UserCodeForm />
      </AuthCard>
    );
  }

  let device: PendingDeviceDto | null = null;
  let problem: string | null = null;
  try {
    device = await findDeviceAuthorization({ userCode });
  } catch (err) {
    if (!isAppError(err)) throw err;
    problem = err.message;
  }
  if (!device || device.status !== 'pending') {
    const message = problem ?? (device?.status === 'expired' ? 'This code has expired. Start the sign-in on your device again.' : 'This code has already been used.');
    return (
      <AuthCard title="Connect a device" description="Enter the code shown by your terminal or editor.">
        <FormAlert className="mb-5">{message}</FormAlert>
        <UserCodeForm defaultValue={userCode} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Connect a device"
      description={
        <>
          Signed in as <span className="font-medium text-foreground">{user.email}</span>. Approve only if this code matches the one on your device.
        </>
      }
    >
      <dl className="rounded-xl border border-border bg-surface p-5">
        <dt className="text-xs font-medium tracking-wide text-muted uppercase">Code</dt>
        <dd className="mt-1 font-mono text-3xl font-semibold tracking-[0.2em] text-foreground" data-testid="user-code">
          {device.user_code}
        </dd>
        <dt className="mt-4 text-xs font-medium tracking-wide text-muted uppercase">Requested by</dt>
        <dd className="mt-1 text-sm text-foreground">
          <span className="font-medium">{device.client_name || 'An unnamed device'}</span>
          <span className="text-muted"> · {KIND[device.client_kind]}</span>
        </dd>
      </dl>
      <p className="mt-4 text-sm leading-6 text-muted">
        Approving lets this device use your account and your credit as you, until you revoke it.
      </p>
      <DeviceDecision userCode={device.user_code} />
      <div className="mt-6 text-center text-sm text-muted">
        <SignOutButton callbackUrl={here} />
      </div>
    </AuthCard>
  );
}
