import { signOutAction } from '@/app/(auth)/actions';

/**
 * "Not you? Sign out" — a form, so it works without JavaScript; comes back to `callbackUrl` after signing in
 * again. A form may not sit inside a <p> (the parser closes the paragraph, and hydration then fails).
 */
export function SignOutButton({ callbackUrl, label = 'Not you? Sign out' }: { callbackUrl: string; label?: string }) {
  return (
    <form action={signOutAction} className="inline">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <button type="submit" className="font-medium text-accent-text underline-offset-4 hover:underline">
        {label}
      </button>
    </form>
  );
}
