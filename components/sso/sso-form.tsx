'use client';

// The issuer, client and domains of the organization's single sign-on. The client secret is write-only:
// required the first time, kept when left empty afterwards. Validated by the service's own schema (issues
// land on the fields); saving checks the issuer's discovery document.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CopyField } from '@/components/console/copy-field';
import { readError, zodFieldErrors } from '@/components/console/errors';
import { SelectField, TextareaField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { ssoFormSchema } from './sso-form-schema';

type Config = NonNullable<RouterOutputs['sso']['get']>;

export function SsoForm({ config }: { config: Config | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [issuer, setIssuer] = useState(config?.issuer ?? '');
  const [clientId, setClientId] = useState(config?.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState(config?.domains.map((d) => d.domain).join('\n') ?? '');
  const [role, setRole] = useState<'member' | 'billing' | 'admin'>(config?.default_role ?? 'member');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation(trpc.sso.set.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.sso.get.queryKey(), data) }));
  const failure = save.error ? readError(save.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const values = {
      issuer: issuer.trim(),
      client_id: clientId.trim(),
      ...(secret ? { client_secret: secret } : {}),
      domains: domains.split(/[\s,]+/).map((d) => d.trim()).filter(Boolean),
      default_role: role,
    };
    const local = zodFieldErrors(ssoFormSchema(config !== null).safeParse(values));
    setErrors(local ?? {});
    if (local) return;
    try {
      await save.mutateAsync(values);
      setSecret('');
      toast(config ? 'Single sign-on saved' : 'Single sign-on set up: now verify your domains');
    } catch (err) {
      const fields = readError(err).fields;
      // "domains.0" → the domains field.
      setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.split('.')[0]!, v])));
    }
  }

  return (
    <Section id="sso-issuer" title="Identity provider" description="Register the redirect URI below at your identity provider as an OpenID Connect web application, then enter what it gives you.">
      <form onSubmit={submit} noValidate className="space-y-5">
        {config ? <CopyField value={config.redirect_uri} label="Redirect URI" /> : null}
        <TextField id="sso-issuer-url" label="Issuer URL" type="url" placeholder="https://login.example.com" value={issuer} onChange={(e) => setIssuer(e.target.value)} error={errors.issuer} hint="Its /.well-known/openid-configuration is checked when you save." />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField id="sso-client-id" label="Client ID" value={clientId} onChange={(e) => setClientId(e.target.value)} error={errors.client_id} autoComplete="off" />
          <TextField
            id="sso-client-secret"
            label="Client secret"
            type="password"
            autoComplete="new-password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            error={errors.client_secret}
            hint={config ? `Stored (${config.client_secret_hint}); leave empty to keep it.` : 'Stored encrypted; never shown again.'}
          />
        </div>
        <TextareaField id="sso-domains" label="Email domains" rows={3} placeholder={'example.com\nexample.org'} value={domains} onChange={(e) => setDomains(e.target.value)} error={errors.domains} hint="One per line. Each takes effect once its DNS record is verified." />
        <SelectField id="sso-role" label="People join as" value={role} onChange={(e) => setRole(e.target.value as typeof role)} error={errors.default_role} className="sm:w-64">
          <option value="member">Member</option>
          <option value="billing">Billing</option>
          <option value="admin">Admin</option>
        </SelectField>
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : config ? 'Save changes' : 'Set up single sign-on'}
          </Button>
        </div>
      </form>
    </Section>
  );
}
