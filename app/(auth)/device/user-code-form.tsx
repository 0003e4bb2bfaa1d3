import { TextField } from '@/components/console/fields';
import { Button } from '@/components/ui/button';

/** A plain GET form: the code lands in ?user_code= and the page looks it up. */
export function UserCodeForm({ defaultValue }: { defaultValue?: string }) {
  return (
    <form method="get" action="/device" className="space-y-5">
      <TextField
        id="user_code"
        name="user_code"
        label="Device code"
        placeholder="WDJB-MJHT"
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        required
        defaultValue={defaultValue}
        className="[&_input]:font-mono [&_input]:tracking-widest [&_input]:uppercase"
      />
      <Button type="submit" className="w-full">
        Continue
      </Button>
    </form>
  );
}
