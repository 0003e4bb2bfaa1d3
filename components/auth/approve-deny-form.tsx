import { FormAlert } from './form-alert';
import { SubmitButton } from './submit-button';

/** The Approve / Deny form of the device and editor sign-in pages: posts `decision` and the hidden fields. */
export function ApproveDenyForm({ action, error, pending, fields }: { action: (formData: FormData) => void; error?: string; pending: boolean; fields: Record<string, string> }) {
  return (
    <form action={action} className="mt-6 space-y-4">
      {error ? <FormAlert>{error}</FormAlert> : null}
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
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
