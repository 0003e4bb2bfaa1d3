// Email through SMTP_URL when it is set (nodemailer), for invites and alerts. The sender is `?from=` on
// SMTP_URL (e.g. smtp://user:pass@mail.example.com:587?from=Switchboard%20%3Cteam%40example.com%3E), else
// no-reply@ the PUBLIC_URL host. Without SMTP_URL nothing is sent.
import nodemailer from 'nodemailer';
import { env } from '@/server/env';

export interface PlainEmail {
  to: string | string[];
  subject: string;
  text: string;
}

export function mailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/** A transport for SMTP_URL and the sender address; the caller closes the transport when done. */
export function mailTransport(): { transport: nodemailer.Transporter; from: string } {
  const e = env();
  const url = new URL(e.SMTP_URL!);
  const from = url.searchParams.get('from') ?? `Switchboard <no-reply@${e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : 'localhost'}>`;
  url.searchParams.delete('from');
  return { transport: nodemailer.createTransport(url.toString()), from };
}

/** Sends one message; throws when SMTP is not configured or the server refuses it. */
export async function sendEmail(message: PlainEmail): Promise<void> {
  if (!mailConfigured()) throw new Error('SMTP_URL is not set');
  const { transport, from } = mailTransport();
  try {
    await transport.sendMail({ from, ...message });
  } finally {
    transport.close();
  }
}
