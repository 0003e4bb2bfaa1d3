'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { slugSchema } from '@/server/organizations/organization-dto';
import { Dialog } from './dialog';
import { readError } from './errors';
import { TextField } from './fields';
import { Notice } from './notice';
import { useToast } from './toast';
import { useTRPC } from './trpc';
import { useSwitchAccount } from './use-switch-account';

/** Creates an organization (the caller becomes its owner) and switches to it. */
export function CreateOrganizationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const toast = useToast();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const create = useMutation(trpc.account.createOrganization.mutationOptions());
  const switchAccount = useSwitchAccount();
  const failure = create.error ? readError(create.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors: Record<string, string> = {};
    if (!name.trim()) errors.name = 'Name is required';
    if (slug.trim()) {
      const parsed = slugSchema.safeParse(slug);
      if (!parsed.success) errors.slug = parsed.error.issues[0]?.message ?? 'Invalid slug';
    }
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    try {
      const org = await create.mutateAsync({ name, ...(slug.trim() ? { slug } : {}) });
      await switchAccount.mutateAsync(org.id);
      toast(`Created ${org.name}`);
      setName('');
      setSlug('');
      onClose();
      router.push('/organization');
    } catch (err) {
      setFieldErrors(readError(err).fields);
    }
  }

  const pending = create.isPending || switchAccount.isPending;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create an organization"
      description="Share credits, keys and usage with your team. You become its owner; invite members next."
    >
      <form id="create-organization" onSubmit={submit} noValidate className="space-y-4">
        <TextField id="org-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} data-autofocus placeholder="Acme Research" error={fieldErrors.name} />
        <TextField
          id="org-slug"
          label="URL name (optional)"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
          maxLength={48}
          placeholder="acme-research"
          hint="Lowercase letters, digits and dashes. Derived from the name when empty."
          error={fieldErrors.slug}
        />
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        <div className="flex justify-end gap-3 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Creating…' : 'Create organization'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
