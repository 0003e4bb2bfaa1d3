'use client';

// Each domain of the SSO configuration with the DNS TXT record that proves the organization controls it,
// and a button to check the records now.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CopyButton } from '@/components/console/copy-field';
import { errorMessage } from '@/components/console/errors';
import { formatDateTime } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type Config = NonNullable<RouterOutputs['sso']['get']>;

export function SsoDomains({ config }: { config: Config }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const verify = useMutation(
    trpc.sso.verify.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.sso.get.queryKey(), data);
        const pending = data.domains.filter((d) => !d.verified).length;
        toast(pending ? `${pending} domain${pending === 1 ? '' : 's'} not verified yet` : 'Every domain is verified', pending ? 'error' : 'success');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const unverified = config.domains.some((d) => !d.verified);
  return (
    <Section
      id="sso-domains"
      title="Domains"
      description="Publish each TXT record at your DNS host, then check. DNS changes can take a few minutes to show."
      actions={
        unverified ? (
          <Button variant="secondary" onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? 'Checking…' : 'Check DNS now'}
          </Button>
        ) : undefined
      }
    >
      <ul className="space-y-4">
        {config.domains.map((d) => (
          <li key={d.domain} className="rounded-xl border border-border p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-medium break-all text-foreground">{d.domain}</p>
              {d.verified ? <StatusBadge tone="success">Verified {formatDateTime(d.verified_at)}</StatusBadge> : <StatusBadge tone="warning">Not verified</StatusBadge>}
            </div>
            {d.verified ? null : (
              <dl className="mt-3 grid gap-3 text-sm">
                <div>
                  <dt className="text-xs text-muted">TXT record name</dt>
                  <dd className="mt-1 flex items-center gap-2">
                    <code className="min-w-0 flex-1 font-mono text-xs break-all">{d.verification.name}</code>
                    <CopyButton text={d.verification.name} label={`Copy record name for ${d.domain}`} />
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-muted">TXT record value</dt>
                  <dd className="mt-1 flex items-center gap-2">
                    <code className="min-w-0 flex-1 font-mono text-xs break-all">{d.verification.value}</code>
                    <CopyButton text={d.verification.value} label={`Copy record value for ${d.domain}`} />
                  </dd>
                </div>
                {d.last_check_error ? (
                  <p className="text-xs text-red-700 dark:text-red-300">
                    Last check {formatDateTime(d.last_checked_at)}: {d.last_check_error}
                  </p>
                ) : null}
              </dl>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
