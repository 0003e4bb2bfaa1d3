'use client';

// The key list. Deleting is optimistic: the row goes at once and comes back if the server refuses.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { formatDate, formatRelative, formatUsd } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { StatusBadge } from '@/components/console/status-badge';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useOptimisticRemoval } from '@/components/console/optimistic-removal';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { EditKeyDialog } from './edit-key-dialog';
import { RotateKeyDialog } from './rotate-key-dialog';

type Key = RouterOutputs['apiKeys']['list'][number];

const RESET: Record<string, string> = { daily: 'per day', weekly: 'per week', monthly: 'per month', never: 'in total' };

export function KeyTable({ keys, currentUserId, canManageAll, memberNames }: { keys: Key[]; currentUserId: string; canManageAll: boolean; memberNames?: Map<string, string> }) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState<Key | null>(null);
  const [editing, setEditing] = useState<Key | null>(null);
  const [rotating, setRotating] = useState<Key | null>(null);
  const listKey = trpc.apiKeys.list.queryKey();

  const remove = useMutation(trpc.apiKeys.delete.mutationOptions(useOptimisticRemoval<Key>(listKey, 'Key deleted. Requests with it are refused from now on.')));

  // Fixed at mount: "expired" and "3 minutes ago" need not tick while the page is open.
  const [now] = useState(() => Date.now());
  return (
    <>
      <Table label="API keys">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Key</Th>
            <Th className="text-right">Spend</Th>
            <Th>Models</Th>
            <Th>Last used</Th>
            <Th>Expires</Th>
            <ActionsTh />
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => {
            const expired = k.expires_at !== null && new Date(k.expires_at).getTime() <= now;
            const mayDelete = k.user_id === currentUserId || canManageAll;
            return (
              <tr key={k.id}>
                <Td>
                  <p className="font-medium">
                    {k.name} {k.disabled ? <StatusBadge tone="warning">Disabled</StatusBadge> : null}
                  </p>
                  <p className="text-xs text-muted">
                    Created {formatDate(k.created_at)}
                    {memberNames && k.user_id !== currentUserId ? ` · by ${memberNames.get(k.user_id) ?? 'a former member'}` : ''}
                  </p>
                </Td>
                <Td>
                  <code className="rounded bg-surface px-1.5 py-0.5 font-mono text-xs">{k.hint}</code>
                  {k.previous_key ? (
                    <p className="mt-1 text-xs text-muted">
                      Old key <code className="font-mono">{k.previous_key.hint}</code> works until {formatDate(k.previous_key.expires_at)}
                    </p>
                  ) : null}
                </Td>
                <Td className="text-right tabular-nums">
                  <p>{formatUsd(k.usage_total)}</p>
                  {k.credit_limit !== null ? (
                    <p className="text-xs text-muted">
                      {formatUsd(k.usage_in_window)} of {formatUsd(k.credit_limit)} {RESET[k.limit_reset] ?? ''}
                    </p>
                  ) : null}
                </Td>
                <Td className="max-w-56">
                  {k.allowed_models.length === 0 ? (
                    <span className="text-muted">All models</span>
                  ) : (
                    <span className="block truncate font-mono text-xs" title={k.allowed_models.join(', ')}>
                      {k.allowed_models.length === 1 ? k.allowed_models[0] : `${k.allowed_models.length} models`}
                    </span>
                  )}
                </Td>
                <Td className="whitespace-nowrap text-muted" title={k.last_used_at ?? undefined}>
                  {formatRelative(k.last_used_at, now)}
                </Td>
                <Td className="whitespace-nowrap">{expired ? <StatusBadge tone="danger">Expired</StatusBadge> : k.expires_at ? formatDate(k.expires_at) : <span className="text-muted">Never</span>}</Td>
                <ActionsTd>
                  {mayDelete ? (
                    <>
                    <button
                      type="button"
                      onClick={() => setEditing(k)}
                      className="rounded-md px-2 py-1.5 text-sm font-medium text-muted hover:bg-surface hover:text-foreground"
                      aria-label={`Edit key ${k.name}`}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      onClick={() => setRotating(k)}
                      className="rounded-md px-2 py-1.5 text-sm font-medium text-muted hover:bg-surface hover:text-foreground"
                      aria-label={`Rotate key ${k.name}`}
                    >
                      Rotate
                    </button>
                    <button
                      type="button"
                      onClick={() => setConfirming(k)}
                      className="rounded-md p-2 text-muted hover:bg-red-50 hover:text-red-700 dark:hover:bg-red-950/50 dark:hover:text-red-300"
                      aria-label={`Delete key ${k.name}`}
                    >
                      <Icon name="trash" className="size-4" />
                    </button>
                    </>
                  ) : null}
                </ActionsTd>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <EditKeyDialog apiKey={editing} onClose={() => setEditing(null)} />
      <RotateKeyDialog apiKey={rotating} onClose={() => setRotating(null)} />
      <ConfirmDialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Delete this API key?"
        confirmLabel="Delete key"
        onConfirm={() => {
          if (confirming) remove.mutate({ id: confirming.id });
          setConfirming(null);
        }}
      >
        <p>
          <span className="font-medium text-foreground">{confirming?.name}</span> (<code className="font-mono text-xs">{confirming?.hint}</code>) stops working
          immediately: the next request made with it is refused. Its usage history stays.
        </p>
      </ConfirmDialog>
    </>
  );
}
