// Body-compression codecs for apache-arrow's IPC reader and writer (it ships none: "Record
// batch is compressed but codec not found"), so Arrow JS can read strata's LZ4 / ZSTD IPC files
// and write compressed ones for strata to read. Arrow IPC compresses each body buffer on its own
// as one LZ4 *frame* (not a raw block) or one ZSTD frame.
//   LZ4 frame: decoded here (frame header, independent blocks, stored blocks, optional
//              checksums skipped); encoded here too, with a small greedy block compressor, so
//              strata's decoder sees real matches, and the header checksum (xxHash32).
//   ZSTD:      decoded with fzstd (hyparquet-compressors' dependency); encoded as a valid frame
//              of raw (stored) blocks: no compressor exists in JavaScript here, and the point is
//              only that strata reads what a writer that claims ZSTD produces.
// registerArrowCodecs(arrow) installs both in apache-arrow's compressionRegistry.
import { decompress as zstdDecompress } from 'fzstd';

// ---------------------------------------------------------------------------------------------
// xxHash32 (the LZ4 frame header checksum is its second byte)

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;
const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;
const read32 = (b, i) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;

export function xxh32(bytes, seed = 0) {
  const n = bytes.length;
  let i = 0;
  let h;
  if (n >= 16) {
    let v1 = (seed + P1 + P2) >>> 0;
    let v2 = (seed + P2) >>> 0;
    let v3 = seed >>> 0;
    let v4 = (seed - P1) >>> 0;
    const round = (v, x) => Math.imul(rotl((v + Math.imul(x, P2)) >>> 0, 13), P1) >>> 0;
    for (; i + 16 <= n; i += 16) {
      v1 = round(v1, read32(bytes, i));
      v2 = round(v2, read32(bytes, i + 4));
      v3 = round(v3, read32(bytes, i + 8));
      v4 = round(v4, read32(bytes, i + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else {
    h = (seed + P5) >>> 0;
  }
  h = (h + n) >>> 0;
  for (; i + 4 <= n; i += 4) h = Math.imul(rotl((h + Math.imul(read32(bytes, i), P3)) >>> 0, 17), P4) >>> 0;
  for (; i < n; i++) h = Math.imul(rotl((h + Math.imul(bytes[i], P5)) >>> 0, 11), P1) >>> 0;
  h = Math.imul(h ^ (h >>> 15), P2) >>> 0;
  h = Math.imul(h ^ (h >>> 13), P3) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// LZ4 blocks

// Decodes one LZ4 block into out[at..]; returns the new end. `out` must be large enough.
// Matches may reach back to out[historyStart] (linked blocks of a frame see the blocks before).
export function lz4DecodeBlock(input, out, at = 0, historyStart = at) {
  let o = at;
  let i = 0;
  while (i < input.length) {
    const token = input[i++];
    let literals = token >>> 4;
    if (literals === 15) {
      let b;
      do { b = input[i++]; literals += b; } while (b === 255);
    }
    if (i + literals > input.length) throw new Error('lz4: literals run past the block');
    out.set(input.subarray(i, i + literals), o);
    o += literals;
    i += literals;
    if (i === input.length) break; // the last sequence has no match
    const offset = input[i] | (input[i + 1] << 8);
    i += 2;
    if (offset === 0 || offset > o - historyStart) throw new Error(`lz4: match offset ${offset} out of range`);
    let length = token & 15;
    if (length === 15) {
      let b;
      do { b = input[i++]; length += b; } while (b === 255);
    }
    length += 4;
    for (let k = 0; k < length; k++) out[o + k] = out[o - offset + k]; // overlapping copies too
    o += length;
  }
  return o;
}

function writeLength(out, n) {
  while (n >= 255) { out.push(255); n -= 255; }
  out.push(n);
}

// A greedy LZ4 block compressor (4-byte hash, one candidate per slot). Follows the block
// format's end rules: the last 5 bytes are literals, no match starts in the last 12.
export function lz4EncodeBlock(input) {
  const n = input.length;
  const out = [];
  const table = new Int32Array(1 << 14).fill(-1);
  const hash = (i) => (Math.imul(read32(input, i), 2654435761) >>> 18) & 0x3fff;
  let anchor = 0;
  let i = 0;
  const matchLimit = n - 12;
  const emit = (literalEnd, matchLength, offset) => {
    const literals = literalEnd - anchor;
    const token = (Math.min(literals, 15) << 4) | (matchLength === null ? 0 : Math.min(matchLength - 4, 15));
    out.push(token);
    if (literals >= 15) writeLength(out, literals - 15);
    for (let k = anchor; k < literalEnd; k++) out.push(input[k]);
    if (matchLength === null) return;
    out.push(offset & 255, offset >>> 8);
    if (matchLength - 4 >= 15) writeLength(out, matchLength - 4 - 15);
  };
  while (i < matchLimit) {
    const h = hash(i);
    const candidate = table[h];
    table[h] = i;
    if (candidate >= 0 && i - candidate <= 65535 && read32(input, candidate) === read32(input, i)) {
      let length = 4;
      while (i + length < n - 5 && input[candidate + length] === input[i + length]) length++;
      emit(i, length, i - candidate);
      i += length;
      anchor = i;
    } else {
      i++;
    }
  }
  emit(n, null, 0);
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------
// LZ4 frames

const LZ4_MAGIC = 0x184d2204;
const BLOCK_MAX = { 4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20 };

// Every frame in `input` (concatenated frames are one output; skippable frames are skipped).
// Blocks are decoded into one output, so linked blocks (B.Indep = 0, liblz4's default) may refer
// to the blocks before them within their frame.
export function lz4FrameDecode(input) {
  let out = new Uint8Array(Math.max(64, input.length * 2));
  let o = 0;
  const reserve = (n) => {
    if (o + n <= out.length) return;
    const bigger = new Uint8Array(Math.max(o + n, out.length * 2));
    bigger.set(out.subarray(0, o));
    out = bigger;
  };
  let p = 0;
  while (p < input.length) {
    const magic = read32(input, p);
    if ((magic & 0xfffffff0) === 0x184d2a50) { // skippable frame
      p += 8 + read32(input, p + 4);
      continue;
    }
    if (magic !== LZ4_MAGIC) throw new Error(`lz4 frame: bad magic 0x${magic.toString(16)} at ${p}`);
    const flg = input[p + 4];
    const bd = input[p + 5];
    if (flg >>> 6 !== 1) throw new Error(`lz4 frame: version ${flg >>> 6}`);
    const blockChecksum = (flg & 0x10) !== 0;
    const contentChecksum = (flg & 0x04) !== 0;
    const header = 2 + ((flg & 0x08) ? 8 : 0) + ((flg & 0x01) ? 4 : 0);
    const expected = (xxh32(input.subarray(p + 4, p + 4 + header)) >>> 8) & 255;
    if (input[p + 4 + header] !== expected) throw new Error('lz4 frame: header checksum mismatch');
    const maxBlock = BLOCK_MAX[(bd >>> 4) & 7];
    if (!maxBlock) throw new Error(`lz4 frame: block size code ${(bd >>> 4) & 7}`);
    p += 4 + header + 1;
    const frameStart = o;
    for (;;) {
      const word = read32(input, p);
      p += 4;
      if (word === 0) break;
      const size = word & 0x7fffffff;
      const block = input.subarray(p, p + size);
      if (block.length !== size) throw new Error('lz4 frame: truncated block');
      reserve(Math.max(size, maxBlock));
      if (word & 0x80000000) {
        out.set(block, o);
        o += size;
      } else {
        o = lz4DecodeBlock(block, out, o, frameStart);
      }
      p += size + (blockChecksum ? 4 : 0);
    }
    if (contentChecksum) p += 4;
  }
  return out.slice(0, o);
}

// One frame, 4 MiB independent blocks, no checksums but the header's; a block that does not
// shrink is stored.
export function lz4FrameEncode(input, { blockSize = 4 << 20 } = {}) {
  const parts = [];
  const flg = 0x60; // version 01, independent blocks
  const bd = 7 << 4;
  const header = Uint8Array.from([0x04, 0x22, 0x4d, 0x18, flg, bd, (xxh32(Uint8Array.from([flg, bd])) >>> 8) & 255]);
  parts.push(header);
  const word = (v) => Uint8Array.from([v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255]);
  for (let at = 0; at < input.length; at += blockSize) {
    const raw = input.subarray(at, Math.min(input.length, at + blockSize));
    const packed = lz4EncodeBlock(raw);
    if (packed.length < raw.length) {
      parts.push(word(packed.length), packed);
    } else {
      parts.push(word((raw.length | 0x80000000) >>> 0), raw);
    }
  }
  parts.push(word(0));
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of parts) { out.set(x, o); o += x.length; }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ZSTD

// A single-segment frame with the content size, of raw blocks of at most 128 KiB.
export function zstdRawFrameEncode(input) {
  const blocks = Math.max(1, Math.ceil(input.length / (128 << 10)));
  const out = new Uint8Array(4 + 1 + 8 + blocks * 3 + input.length);
  out.set([0x28, 0xb5, 0x2f, 0xfd], 0);
  out[4] = 0xe0; // Frame_Content_Size_flag 3 (8 bytes), Single_Segment
  let size = BigInt(input.length);
  for (let k = 0; k < 8; k++) { out[5 + k] = Number(size & 255n); size >>= 8n; }
  let o = 13;
  for (let b = 0; b < blocks; b++) {
    const start = b * (128 << 10);
    const chunk = input.subarray(start, Math.min(input.length, start + (128 << 10)));
    const h = (chunk.length << 3) | (b === blocks - 1 ? 1 : 0); // Block_Type 0: raw
    out[o] = h & 255; out[o + 1] = (h >>> 8) & 255; out[o + 2] = (h >>> 16) & 255;
    out.set(chunk, o + 3);
    o += 3 + chunk.length;
  }
  return out;
}

// A fresh, 0-offset copy: fzstd may hand out a view into a larger buffer at any byte offset, and
// apache-arrow needs each decoded buffer aligned for its typed arrays.
export function zstdDecode(input) {
  const out = zstdDecompress(input);
  return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
}

// ---------------------------------------------------------------------------------------------

export function registerArrowCodecs(arrow) {
  const { compressionRegistry, CompressionType } = arrow;
  compressionRegistry.set(CompressionType.LZ4_FRAME, { encode: (d) => lz4FrameEncode(d), decode: (d) => lz4FrameDecode(d) });
  compressionRegistry.set(CompressionType.ZSTD, { encode: (d) => zstdRawFrameEncode(d), decode: (d) => zstdDecode(d) });
}
