// Test support: a DNS server on UDP that answers TXT questions from a table the test fills, in DNS's real
// wire format (RFC 1035), so the verification of SSO domains runs node:dns's own resolver against it
// (SSO_DNS_SERVERS=127.0.0.1:<port>). A name without records is NXDOMAIN; other question types get an
// empty answer.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface FakeDns {
  /** `127.0.0.1:<port>`, for SSO_DNS_SERVERS. */
  address: string;
  /** TXT records by name (lower-case, no trailing dot). */
  txt: Map<string, string[]>;
  /** Names asked about, in order. */
  queries: string[];
  close(): Promise<void>;
}

const TYPE_TXT = 16;

/** The question's name and where the question section ends. */
function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (msg[at] !== 0) {
    const len = msg[at];
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('ascii'));
    at += 1 + len;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

/** A TXT record's RDATA: character-strings of at most 255 bytes each. */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

export function answerQuery(query: Buffer, txt: Map<string, string[]>): { name: string; response: Buffer } {
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const records = txt.get(name);
  const answers = records && type === TYPE_TXT ? records : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  // QR=1, opcode 0, AA=1, RD copied, RA=1; RCODE 3 (NXDOMAIN) for a name we know nothing about.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (records ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const rrs = answers.map((value) => {
    const data = txtData(value);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return { name, response: Buffer.concat([header, question, ...rrs]) };
}

export async function startFakeDns(port = 0): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[]>();
  const queries: string[] = [];
  socket.on('message', (msg, rinfo) => {
    try {
      const { name, response } = answerQuery(msg, txt);
      queries.push(name);
      socket.send(response, rinfo.port, rinfo.address);
    } catch {
      // A malformed packet gets no answer, as from a real server.
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${bound}`,
    txt,
    queries,
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
}
