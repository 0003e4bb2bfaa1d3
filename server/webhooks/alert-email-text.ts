// The email an alert event sends: a subject that says what happened to which account, and a short text
// with the figures and what to do. Pure: the worker (send-alert-emails.ts) sends it.
import { isAlertEvent, type AccountEventData } from './webhook-events';

const usd = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 6 : 2)}`;

/** Whether the event sends an email: alerts, except an auto top-up's payment.failed (its auto_top_up.failed says it). */
export function sendsAlertEmail(type: string, data: unknown): boolean {
  if (!isAlertEvent(type)) return false;
  return !(type === 'payment.failed' && (data as AccountEventData['payment.failed'])?.payment?.kind === 'auto_top_up');
}

export interface AlertEmailText {
  subject: string;
  text: string;
}

export function alertEmailText(p: { type: string; data: unknown; accountName: string; consoleUrl: string | null }): AlertEmailText | null {
  const where = p.accountName || 'your account';
  const footer = ['', p.consoleUrl ? `Manage alerts and billing: ${p.consoleUrl}` : '', 'You receive this as an owner or billing manager of the account (or its user).'].filter((l, i) => i === 0 || l);
  switch (p.type) {
    case 'balance.low': {
      const d = p.data as AccountEventData['balance.low'];
      return {
        subject: `[Switchboard] ${where}: balance below ${usd(d.threshold)}`,
        text: [`The balance of ${where} is ${usd(d.balance)}, below the alert threshold of ${usd(d.threshold)}.`, 'Requests are refused (402) once it runs out: add credit or turn on auto top-up.', ...footer].join('\n'),
      };
    }
    case 'limit.threshold': {
      const d = p.data as AccountEventData['limit.threshold'];
      const who = d.subject === 'api_key' ? `API key "${d.api_key?.name}" (${d.api_key?.hint})` : `member ${d.member?.email}`;
      const window = d.limit_reset === 'never' ? '' : ` this ${d.limit_reset === 'daily' ? 'day' : d.limit_reset === 'weekly' ? 'week' : 'month'}`;
      return {
        subject: `[Switchboard] ${where}: ${who} reached ${d.threshold_percent}% of its spend limit`,
        text: [
          `${who} has spent ${usd(d.spent)} of its ${usd(d.limit)} limit${window} (${d.threshold_percent}% reached).`,
          d.threshold_percent >= 100 ? 'Its requests are refused (402) until the limit is raised or the window resets.' : 'Its requests will be refused (402) when the limit is used up.',
          ...footer,
        ].join('\n'),
      };
    }
    case 'payment.failed': {
      const d = p.data as AccountEventData['payment.failed'];
      if (!sendsAlertEmail(p.type, d)) return null;
      return {
        subject: `[Switchboard] ${where}: a payment of ${usd(d.payment.amount_cents / 100)} failed`,
        text: [`A payment of ${usd(d.payment.amount_cents / 100)} for ${where} failed: ${d.reason}.`, 'No credit was added.', ...footer].join('\n'),
      };
    }
    case 'auto_top_up.failed': {
      const d = p.data as AccountEventData['auto_top_up.failed'];
      return {
        subject: `[Switchboard] ${where}: auto top-up failed and was turned off`,
        text: [`An automatic top-up of ${where} failed: ${d.reason}.`, 'Auto top-up is now off, so it is not retried on the same card. Update the payment method and turn it on again.', ...footer].join('\n'),
      };
    }
    default:
      return null;
  }
}
