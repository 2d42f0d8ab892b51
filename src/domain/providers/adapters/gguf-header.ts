// A GGUF model file's cheap check at discovery (issue 33 item 4): its header, metadata and tensor
// table are read (never the weights) and the file must be long enough to hold every tensor the table
// names. A file that fails says why in the daemon's own words ("not a GGUF file", "file is cut
// short"); the runtime's exception text never reaches a client. Layout: ggml's docs/gguf.md.
// Not node-llama-cpp's readGgufFileInfo: it reads zeros past a file's end, so a 24-byte header that
// claims 10^9 tensors grew the daemon by 230 MiB in 6 s without ending; here every count is bounded
// by the bytes the file has (and a 100 KB model is checked in 0.6 ms against its 3 ms).
import { open } from 'node:fs/promises';

/** Past this much header and metadata the check gives up and leaves the file to the runtime. */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;
const FIRST_READ = 1024 * 1024;

/** Bytes of one value of each fixed-size metadata type (GGUF value types 0 to 12, strings and arrays apart). */
const FIXED: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/** [bytes per block, values per block] of the ggml tensor types whose size is known here; others are checked by their start only. */
const TENSOR_TYPES: Record<number, [number, number]> = {
  0: [4, 1], // F32
  1: [2, 1], // F16
  2: [18, 32], // Q4_0
  3: [20, 32], // Q4_1
  6: [22, 32], // Q5_0
  7: [24, 32], // Q5_1
  8: [34, 32], // Q8_0
  10: [84, 256], // Q2_K
  11: [110, 256], // Q3_K
  12: [144, 256], // Q4_K
  13: [176, 256], // Q5_K
  14: [210, 256], // Q6_K
  15: [292, 256], // Q8_K
  24: [1, 1], // I8
  25: [2, 1], // I16
  26: [4, 1], // I32
  27: [8, 1], // I64
  28: [8, 1], // F64
  30: [2, 1], // BF16
};

/** The buffer ended before the structure did. */
class Short extends Error {}
/** The structure is not GGUF's. */
class Malformed extends Error {}

class Reader {
  at = 0;
  constructor(private readonly b: Buffer) {}
  private need(n: number): void {
    if (this.at + n > this.b.length) throw new Short();
  }
  u32(): number {
    this.need(4);
    const v = this.b.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = this.b.readBigUInt64LE(this.at);
    this.at += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Malformed();
    return Number(v);
  }
  skip(n: number): void {
    this.need(n);
    this.at += n;
  }
  string(): string {
    const n = this.u64();
    this.need(n);
    const s = this.b.toString('utf8', this.at, this.at + n);
    this.at += n;
    return s;
  }
}

/** What the check found: the tensor data's end (bytes from the start), or the bytes it ran out of. */
function parse(b: Buffer): { end: number } {
  const r = new Reader(b);
  if (b.length < 4 || b.toString('latin1', 0, 4) !== 'GGUF') throw new Malformed();
  r.skip(4);
  const version = r.u32();
  if (version < 2 || version > 3) throw new Malformed();
  const tensors = r.u64();
  const pairs = r.u64();
  let alignment = 32;
  const value = (type: number): number | undefined => {
    if (type in FIXED) {
      if (type === 4) return r.u32();
      r.skip(FIXED[type]);
      return undefined;
    }
    if (type === STRING) {
      r.string();
      return undefined;
    }
    if (type === ARRAY) {
      const of = r.u32();
      const count = r.u64();
      if (of in FIXED) r.skip(FIXED[of] * count);
      else if (of === STRING) for (let i = 0; i < count; i++) r.string();
      else throw new Malformed();
      return undefined;
    }
    throw new Malformed();
  };
  for (let i = 0; i < pairs; i++) {
    const key = r.string();
    const v = value(r.u32());
    if (key === 'general.alignment' && v !== undefined && v > 0) alignment = v;
  }
  let end = 0;
  for (let i = 0; i < tensors; i++) {
    r.string();
    const dims = r.u32();
    if (dims > 8) throw new Malformed();
    let count = 1;
    for (let d = 0; d < dims; d++) count *= r.u64();
    const type = r.u32();
    const offset = r.u64();
    const known = TENSOR_TYPES[type];
    end = Math.max(end, offset + (known === undefined ? 1 : Math.ceil(count / known[1]) * known[0]));
  }
  const dataStart = Math.ceil(r.at / alignment) * alignment;
  return { end: tensors === 0 ? r.at : dataStart + end };
}

/**
 * Why a `.gguf` file cannot be a model, in the daemon's words, or undefined when its header, metadata
 * and tensor table hold together and the file is long enough for every tensor.
 */
export async function ggufFileProblem(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return 'cannot be read';
  }
  try {
    const { size } = await handle.stat();
    for (let window = Math.min(size, FIRST_READ); ; window = Math.min(size, window * 4)) {
      const buffer = Buffer.alloc(window);
      const { bytesRead } = await handle.read(buffer, 0, window, 0);
      try {
        const { end } = parse(buffer.subarray(0, bytesRead));
        return end > size ? 'file is cut short' : undefined;
      } catch (err) {
        if (err instanceof Malformed) return 'not a GGUF file';
        if (bytesRead >= size)
          return size < 24 || !buffer.subarray(0, 4).equals(Buffer.from('GGUF')) ? 'not a GGUF file' : 'file is cut short';
        if (window >= MAX_HEADER_BYTES) return undefined;
      }
    }
  } catch {
    return 'cannot be read';
  } finally {
    await handle.close();
  }
}
