import { signInWithProvider } from '@/app/(auth)/actions';
import { Button, ButtonLink } from '@/components/ui/button';

function ProviderIcon({ id }: { id: string }) {
  if (id === 'github') {
    return (
      <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4 fill-current">
        <path d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z" />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 01-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.8z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3c-1.1.7-2.4 1.2-4 1.2-3.1 0-5.7-2.1-6.6-4.9h-4v3.1A12 12 0 0012 24z" />
      <path fill="#FBBC05" d="M5.4 14.4a7.2 7.2 0 010-4.7V6.6h-4a12 12 0 000 10.8l4-3z" />
      <path fill="#EA4335" d="M12 4.8c1.7 0 3.3.6 4.5 1.8l3.4-3.4A12 12 0 001.4 6.6l4 3.1C6.3 6.9 8.9 4.8 12 4.8z" />
    </svg>
  );
}

/**
 * One form per configured provider (shown only when the provider's id and secret are set), and the link to
 * the single sign-on step when `ssoHref` is given.
 */
export function OAuthButtons({ providers, callbackUrl, ssoHref }: { providers: { id: string; name: string }[]; callbackUrl: string; ssoHref?: string }) {
  return (
    <div className="mb-6">
      <div className="grid gap-3">
        {ssoHref ? (
          <ButtonLink href={ssoHref} variant="secondary" className="w-full">
            <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4 fill-none stroke-current" strokeWidth="1.5">
              <rect x="3" y="7" width="10" height="7" rx="1.5" />
              <path d="M5.5 7V5a2.5 2.5 0 015 0v2" />
            </svg>
            Sign in with SSO
          </ButtonLink>
        ) : null}
        {providers.map((p) => (
          <form key={p.id} action={signInWithProvider}>
            <input type="hidden" name="provider" value={p.id} />
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <Button type="submit" variant="secondary" className="w-full">
              <ProviderIcon id={p.id} />
              Continue with {p.name}
            </Button>
          </form>
        ))}
      </div>
      <div className="relative mt-6 flex items-center" aria-hidden="true">
        <div className="flex-1 border-t border-border" />
        <span className="px-3 text-xs text-muted">or with email</span>
        <div className="flex-1 border-t border-border" />
      </div>
    </div>
  );
}
