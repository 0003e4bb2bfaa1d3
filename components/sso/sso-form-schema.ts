// The SSO form's checks before it is sent (the server's schema checks again, with the issuer's https rule
// that depends on server configuration).
import { z } from 'zod';

const domain = z
  .string()
  .regex(/^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'Each domain must be a domain name such as acme.com (no @, no https://)');

export function ssoFormSchema(configured: boolean) {
  return z.object({
    issuer: z.string().min(1, 'Enter the issuer URL').url('Enter a URL such as https://login.example.com'),
    client_id: z.string().min(1, 'Enter the client ID'),
    client_secret: configured ? z.string().optional() : z.string({ error: 'Enter the client secret' }).min(1, 'Enter the client secret'),
    domains: z.array(domain).min(1, 'Enter at least one email domain').max(50, 'At most 50 domains'),
    default_role: z.enum(['member', 'billing', 'admin']),
  });
}
