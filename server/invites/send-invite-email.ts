// Invite emails, sent through SMTP_URL when it is set (server/email/smtp.ts). Without SMTP_URL nothing is
// sent: the inviter gets the link to share.
import { mailConfigured, mailTransport } from '@/server/email/smtp';

export { mailConfigured };

export interface InviteEmail {
  to: string;
  organizationName: string;
  inviterName: string;
  role: string;
  link: string;
  expiresAt: Date;
}

export function inviteEmailText(m: InviteEmail): { subject: string; text: string } {
  return {
    subject: `${m.inviterName} invited you to ${m.organizationName} on Switchboard`,
    text: [
      `${m.inviterName} invited you to join ${m.organizationName} on Switchboard as ${m.role === 'admin' ? 'an' : 'a'} ${m.role}.`,
      '',
      `Accept the invitation: ${m.link}`,
      '',
      `The link works once and expires on ${m.expiresAt.toUTCString()}. Sign in (or create an account) with ${m.to} to accept it.`,
      "If you did not expect this invitation, you can ignore this email.",
    ].join('\n'),
  };
}

/** Sends the invites in parallel; returns, per recipient, null when sent or the reason it was not. */
export async function sendInviteEmails(messages: InviteEmail[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (!mailConfigured() || messages.length === 0) return out;
  const { transport, from } = mailTransport();
  const results = await Promise.allSettled(messages.map((m) => transport.sendMail({ from, to: m.to, ...inviteEmailText(m) })));
  results.forEach((r, i) => out.set(messages[i].to, r.status === 'fulfilled' ? null : String((r.reason as Error)?.message ?? r.reason).slice(0, 200)));
  transport.close();
  return out;
}
