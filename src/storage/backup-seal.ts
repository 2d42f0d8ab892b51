// Backups sealed with SERVICE_BACKUP_KEY (docs/operations.md). The file opens with one clear JSON line
// naming the cipher and the key derivation's salt; the backup's NDJSON follows in frames of about
// 64 KiB, each AES-256-GCM with its own tag (4-byte length, ciphertext, tag). A frame's nonce is its
// index with a last-frame flag, and every frame authenticates the clear line, so a frame altered,
// dropped, reordered or cut off, a changed header, or a file made with another key does not verify.
import { createCipheriv, createDecipheriv, randomBytes, scrypt, type BinaryLike, type ScryptOptions } from 'node:crypto';

/** The first line of a sealed backup. */
export interface SealedHeader {
  format: 'switchyard-backup';
  version: 1;
  sealed: { cipher: 'aes-256-gcm'; kdf: 'scrypt'; salt: string; n: number; r: number; p: number };
}

/** Plaintext bytes per frame, about. */
const FRAME_BYTES = 64 * 1024;
/** A frame longer than this is damage, not data: the reader refuses it before allocating it. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const TAG_BYTES = 16;
const KDF = { n: 2 ** 15, r: 8, p: 1 };

export class BackupSealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupSealError';
  }
}

function deriveKey(secret: string, salt: BinaryLike, kdf: { n: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: kdf.n, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.n * kdf.r };
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, 32, options, (err, key) => (err === null ? resolve(key) : reject(err))),
  );
}

function nonceOf(index: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeUIntBE(index, 5, 6);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** The backup's lines, sealed: the clear header line, then the frames. */
export async function* sealBackup(lines: AsyncIterable<string>, secret: string): AsyncIterable<Buffer> {
  const salt = randomBytes(16);
  const header: SealedHeader = {
    format: 'switchyard-backup',
    version: 1,
    sealed: { cipher: 'aes-256-gcm', kdf: 'scrypt', salt: salt.toString('base64'), ...KDF },
  };
  const headerLine = Buffer.from(`${JSON.stringify(header)}\n`);
  const key = await deriveKey(secret, salt, KDF);
  yield headerLine;
  let index = 0;
  const seal = (plain: Buffer, last: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', key, nonceOf(index++, last));
    cipher.setAAD(headerLine);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, body, cipher.getAuthTag()]);
  };
  let pending: string[] = [];
  let size = 0;
  for await (const line of lines) {
    pending.push(line);
    size += line.length;
    if (size >= FRAME_BYTES) {
      yield seal(Buffer.from(pending.join('')), false);
      pending = [];
      size = 0;
    }
  }
  yield seal(Buffer.from(pending.join('')), true);
}

/** Whether this first line is a sealed backup's header, and the header if so. */
export function sealedHeaderOf(value: unknown): SealedHeader | undefined {
  const v = value as Partial<SealedHeader> | null;
  if (v === null || typeof v !== 'object' || v.format !== 'switchyard-backup' || typeof v.sealed !== 'object') return undefined;
  const s = v.sealed;
  if (
    s.cipher !== 'aes-256-gcm' ||
    s.kdf !== 'scrypt' ||
    typeof s.salt !== 'string' ||
    ![s.n, s.r, s.p].every((x) => Number.isInteger(x) && x > 0) ||
    s.n > 2 ** 20 ||
    s.r > 32 ||
    s.p > 16
  )
    throw new BackupSealError('the backup names a cipher or key derivation this version does not know');
  return v as SealedHeader;
}

/**
 * Opens a sealed backup's frames: `chunks` are the file's bytes after the header line. Yields the
 * plaintext, each frame only once it verified; throws BackupSealError on the first frame that does not,
 * on a file that ends before its last frame, and on bytes after it.
 */
export async function* openSealed(
  headerLine: Buffer,
  header: SealedHeader,
  secret: string,
  chunks: AsyncIterable<Buffer>,
): AsyncIterable<Buffer> {
  const key = await deriveKey(secret, Buffer.from(header.sealed.salt, 'base64'), header.sealed);
  let buffered: Buffer = Buffer.alloc(0);
  let index = 0;
  let ended = false;
  const refuse = () =>
    new BackupSealError(
      'the backup does not verify with SERVICE_BACKUP_KEY: it was made with another key, or altered since; nothing was restored',
    );
  for await (const chunk of chunks) {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.length === 0) break;
      if (ended) throw new BackupSealError('the backup goes on past its end: the file is damaged');
      if (buffered.length < 4) break;
      const length = buffered.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) throw refuse();
      if (buffered.length < 4 + length + TAG_BYTES) break;
      const body = buffered.subarray(4, 4 + length);
      const tag = buffered.subarray(4 + length, 4 + length + TAG_BYTES);
      buffered = buffered.subarray(4 + length + TAG_BYTES);
      // The last frame is the one whose flag verifies: try it as a middle frame, then as the last.
      let plain: Buffer | undefined;
      for (const last of [false, true]) {
        const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(index, last));
        decipher.setAAD(headerLine);
        decipher.setAuthTag(tag);
        try {
          plain = Buffer.concat([decipher.update(body), decipher.final()]);
          ended = last;
          break;
        } catch {
          plain = undefined;
        }
      }
      if (plain === undefined) throw refuse();
      index++;
      yield plain;
    }
  }
  if (!ended) throw new BackupSealError('the backup is incomplete (it was cut off while being written): nothing was restored');
}
