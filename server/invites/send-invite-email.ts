// Invite emails, sent through SMTP_URL when it is set (nodemailer). The sender is `?from=` on SMTP_URL
// (e.g. smtp://user:pass@mail.example.com:587?from=Switchboard%20%3Cteam%40example.com%3E), else
// no-reply@ the PUBLIC_URL host. Without SMTP_URL nothing is sent: the inviter gets the link to share.
import nodemailer from 'nodemailer';
import { env } from '@/server/env';

export interface InviteEmail {
  to: string;
  organizationName: string;
  inviterName: string;
  role: string;
  link: string;
  expiresAt: Date;
}

export function mailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

function transportAndSender(): { transport: nodemailer.Transporter; from: string } {
  const e = env();
  const url = new URL(e.SMTP_URL!);
  const from = url.searchParams.get('from') ?? `Switchboard <no-reply@${e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : 'localhost'}>`;
  url.searchParams.delete('from');
  return { transport: nodemailer.createTransport(url.toString()), from };
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
  const { transport, from } = transportAndSender();
  const results = await Promise.allSettled(messages.map((m) => transport.sendMail({ from, to: m.to, ...inviteEmailText(m) })));
  results.forEach((r, i) => out.set(messages[i].to, r.status === 'fulfilled' ? null : String((r.reason as Error)?.message ?? r.reason).slice(0, 200)));
  transport.close();
  return out;
}
