// A DNS server on 127.0.0.1 over UDP (RFC 1035) that answers TXT questions from a table: a name with
// records gets them, any other name NXDOMAIN. Enough for a resolver (node:dns, c-ares) to ask it.
import dgram from 'node:dgram';
import type { Test } from 'tap';

const TYPE_TXT = 16;

/** The question's name and type, and where the question section ends. */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (msg[at] !== 0) {
    const length = msg[at];
    labels.push(msg.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  at += 1;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at), end: at + 4 };
}

function txtRecord(text: string): Buffer {
  // A character-string is at most 255 bytes; longer text is split, as DNS publishes it.
  const chunks: Buffer[] = [];
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const part = bytes.subarray(i, i + 255);
    chunks.push(Buffer.from([part.length]), part);
  }
  const rdata = Buffer.concat(chunks);
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  head.writeUInt16BE(TYPE_TXT, 2);
  head.writeUInt16BE(1, 4); // IN
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}

export class FakeDns {
  /** Names asked, in order. */
  readonly asked: string[] = [];

  private constructor(
    private readonly socket: dgram.Socket,
    readonly records: Map<string, string[]>,
  ) {}

  static async start(t: Test, records: Record<string, string[]>): Promise<FakeDns> {
    const socket = dgram.createSocket('udp4');
    const dns = new FakeDns(socket, new Map(Object.entries(records)));
    socket.on('message', (msg, peer) => dns.answer(msg, peer));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => socket.close(() => resolve())));
    return dns;
  }

  /** `127.0.0.1:<port>`, as a resolver's server list takes it. */
  get address(): string {
    return `127.0.0.1:${this.socket.address().port}`;
  }

  private answer(msg: Buffer, peer: dgram.RemoteInfo): void {
    if (msg.length < 17) return;
    const { name, type, end } = readQuestion(msg);
    this.asked.push(name);
    const found = this.records.get(name);
    const answers = type === TYPE_TXT && found !== undefined ? found.map(txtRecord) : [];
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // the query's id
    // QR, the query's RD, RA; NXDOMAIN when the name has nothing.
    header.writeUInt16BE(0x8080 | (msg.readUInt16BE(2) & 0x0100) | (found === undefined ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    this.socket.send(Buffer.concat([header, msg.subarray(12, end), ...answers]), peer.port, peer.address);
  }
}
