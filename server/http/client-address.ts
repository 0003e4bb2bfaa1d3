// The client's address as route handlers see it (sign-in and sign-up throttles read X-Forwarded-For through
// clientIp). Next fills X-Forwarded-For from the socket only when the request has none (`??=`), so a client
// could otherwise name any address it likes and step around every per-address limit by changing it on each
// attempt. Unless the operator says a proxy in front sets these headers (TRUST_PROXY=1, as for links in
// public-origin.ts), the production server replaces them with the address of the socket.
import type { IncomingMessage } from 'node:http';

export function pinClientAddress(req: IncomingMessage, trustProxy: boolean): void {
  if (trustProxy) return;
  delete req.headers['x-real-ip'];
  const address = req.socket.remoteAddress;
  if (address) req.headers['x-forwarded-for'] = address;
  else delete req.headers['x-forwarded-for'];
}
