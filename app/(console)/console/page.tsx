import { redirect } from 'next/navigation';

/** /console is the console's front door; the overview is its first page. */
export default function ConsolePage() {
  redirect('/overview');
}
