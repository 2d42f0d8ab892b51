// Writes GGUF model files (version 3, as ggml's docs/gguf.md lays them out): a header, the metadata
// (typed key-value pairs), the tensor infos, then each tensor's data at an aligned offset. Enough for
// tiny F32 `llama` models whose weights a test chooses, so the GGUF runtime runs a real model file
// without downloading one.

/** A metadata value and its GGUF type; arrays hold one type. */
export type GgufValue =
  | { u32: number }
  | { i32: number }
  | { f32: number }
  | { bool: boolean }
  | { str: string }
  | { strs: string[] }
  | { f32s: number[] }
  | { i32s: number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: the first dimension is the row length (for a weight matrix, its input size). */
  dims: number[];
  data: Float32Array;
}

const TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, str: 8, array: 9 } as const;
const F32 = 0;
const ALIGNMENT = 32;

class Writer {
  private readonly parts: Buffer[] = [];

  u32(v: number): void {
    this.fixed(4, (b) => b.writeUInt32LE(v));
  }
  i32(v: number): void {
    this.fixed(4, (b) => b.writeInt32LE(v));
  }
  f32(v: number): void {
    this.fixed(4, (b) => b.writeFloatLE(v));
  }
  u64(v: number): void {
    this.fixed(8, (b) => b.writeBigUInt64LE(BigInt(v)));
  }
  /** A little-endian number of `size` bytes, as `write` puts it. */
  private fixed(size: number, write: (b: Buffer) => void): void {
    const b = Buffer.alloc(size);
    write(b);
    this.parts.push(b);
  }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.parts.push(bytes);
  }
  raw(b: Buffer): void {
    this.parts.push(b);
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function writeValue(w: Writer, value: GgufValue): void {
  const array = <T>(type: number, items: readonly T[], write: (item: T) => void) => {
    w.u32(TYPE.array);
    w.u32(type);
    w.u64(items.length);
    for (const item of items) write(item);
  };
  if ('u32' in value) {
    w.u32(TYPE.u32);
    w.u32(value.u32);
  } else if ('i32' in value) {
    w.u32(TYPE.i32);
    w.i32(value.i32);
  } else if ('f32' in value) {
    w.u32(TYPE.f32);
    w.f32(value.f32);
  } else if ('bool' in value) {
    w.u32(TYPE.bool);
    w.raw(Buffer.from([value.bool ? 1 : 0]));
  } else if ('str' in value) {
    w.u32(TYPE.str);
    w.str(value.str);
  } else if ('strs' in value) array(TYPE.str, value.strs, (s) => w.str(s));
  else if ('f32s' in value) array(TYPE.f32, value.f32s, (v) => w.f32(v));
  else array(TYPE.i32, value.i32s, (v) => w.i32(v));
}

/** The bytes of a GGUF v3 file with this metadata and these F32 tensors. */
export function ggufFile(metadata: Record<string, GgufValue>, tensors: readonly GgufTensor[]): Buffer {
  const w = new Writer();
  w.raw(Buffer.from('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    w.str(key);
    writeValue(w, value);
  }
  const aligned = (n: number) => Math.ceil(n / ALIGNMENT) * ALIGNMENT;
  let offset = 0;
  const placed: { offset: number; data: Buffer }[] = [];
  for (const tensor of tensors) {
    const size = tensor.dims.reduce((a, b) => a * b, 1);
    if (size !== tensor.data.length)
      throw new TypeError(`${tensor.name}: ${tensor.data.length} values for dims ${tensor.dims.join('x')}`);
    w.str(tensor.name);
    w.u32(tensor.dims.length);
    for (const d of tensor.dims) w.u64(d);
    w.u32(F32);
    w.u64(offset);
    placed.push({ offset, data: Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength) });
    offset = aligned(offset + tensor.data.byteLength);
  }
  const head = w.bytes();
  const start = aligned(head.length);
  const file = Buffer.alloc(start + offset);
  head.copy(file);
  for (const p of placed) p.data.copy(file, start + p.offset);
  return file;
}

/**
 * A tiny `llama` model (one layer, 32 wide) over a byte-level vocabulary (`<unk>`, `<s>`, `</s>`, the
 * 256 byte tokens `<0x00>`..`<0xFF>`, and `▁` for spaces) that writes, after its last input token,
 * `next(byte)` of that token's byte (a byte, or null for the end token `</s>`), then of what it
 * wrote, and so on. Attention and feed-forward weights are zero, so each step sees only its own
 * token: the embedding puts a byte on its own dimension and the output head maps that dimension to
 * the byte's successor. `next` may name at most 31 distinct inputs (every other byte shares the
 * last dimension: pass `other`). The chat template writes the messages' contents one after another.
 */
export function byteModel(options: {
  name: string;
  /** The bytes with their own successor, and what follows each (null: the end token). */
  next: Map<number, number | null>;
  /** What follows any other token. */
  other: number | null;
}): Buffer {
  const width = 32;
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3]; // unknown, control, control
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6); // byte
  }
  tokens.push('\u2581'); // SentencePiece's space, so that text with spaces reads back as it was written
  types.push(1);
  const vocab = tokens.length;
  const EOS = 2;
  const tokenOf = (b: number | null) => (b === null ? EOS : 3 + b);
  const inputs = [...options.next.keys()];
  if (inputs.length > width - 1) throw new TypeError(`at most ${width - 1} bytes with their own successor`);
  const otherDim = width - 1;
  const dimOf = (token: number) => {
    const i = inputs.indexOf(token - 3);
    return i === -1 ? otherDim : i;
  };

  const embedding = new Float32Array(width * vocab);
  for (let t = 0; t < vocab; t++) embedding[t * width + dimOf(t)] = 1;
  // A large margin: the successor wins by far at any temperature.
  const head = new Float32Array(width * vocab);
  inputs.forEach((b, dim) => (head[tokenOf(options.next.get(b)!) * width + dim] = 10));
  head[tokenOf(options.other) * width + otherDim] = 10;
  const ones = (n: number) => new Float32Array(n).fill(1);
  const zeros = (n: number) => new Float32Array(n);

  return ggufFile(
    {
      'general.architecture': { str: 'llama' },
      'general.name': { str: options.name },
      'llama.context_length': { u32: 512 },
      'llama.embedding_length': { u32: width },
      'llama.block_count': { u32: 1 },
      'llama.feed_forward_length': { u32: width },
      'llama.attention.head_count': { u32: 2 },
      'llama.attention.head_count_kv': { u32: 2 },
      'llama.attention.layer_norm_rms_epsilon': { f32: 1e-5 },
      'llama.rope.dimension_count': { u32: width / 2 },
      'tokenizer.ggml.model': { str: 'llama' },
      'tokenizer.ggml.tokens': { strs: tokens },
      'tokenizer.ggml.scores': { f32s: tokens.map(() => 0) },
      'tokenizer.ggml.token_type': { i32s: types },
      'tokenizer.ggml.unknown_token_id': { u32: 0 },
      'tokenizer.ggml.bos_token_id': { u32: 1 },
      'tokenizer.ggml.eos_token_id': { u32: EOS },
      'tokenizer.ggml.add_space_prefix': { bool: false },
      'tokenizer.chat_template': { str: "{% for message in messages %}{{ message['content'] }}{% endfor %}" },
    },
    [
      { name: 'token_embd.weight', dims: [width, vocab], data: embedding },
      { name: 'output_norm.weight', dims: [width], data: ones(width) },
      { name: 'output.weight', dims: [width, vocab], data: head },
      { name: 'blk.0.attn_norm.weight', dims: [width], data: ones(width) },
      { name: 'blk.0.attn_q.weight', dims: [width, width], data: zeros(width * width) },
      { name: 'blk.0.attn_k.weight', dims: [width, width], data: zeros(width * width) },
      { name: 'blk.0.attn_v.weight', dims: [width, width], data: zeros(width * width) },
      { name: 'blk.0.attn_output.weight', dims: [width, width], data: zeros(width * width) },
      { name: 'blk.0.ffn_norm.weight', dims: [width], data: ones(width) },
      { name: 'blk.0.ffn_gate.weight', dims: [width, width], data: zeros(width * width) },
      { name: 'blk.0.ffn_up.weight', dims: [width, width], data: zeros(width * width) },
      { name: 'blk.0.ffn_down.weight', dims: [width, width], data: zeros(width * width) },
    ],
  );
}
