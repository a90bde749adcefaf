// node --test testing/peers/: the LZ4 frame and ZSTD codecs check_ipc.mjs gives apache-arrow.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decompressLz4Raw } from 'hyparquet-compressors';
import {
  lz4DecodeBlock, lz4EncodeBlock, lz4FrameDecode, lz4FrameEncode, xxh32, zstdDecode, zstdRawFrameEncode,
} from './ipc_codecs.mjs';

const bytes = (s) => new TextEncoder().encode(s);

function samples() {
  let seed = 7;
  const random = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 24; };
  const noise = Uint8Array.from({ length: 70000 }, random);
  const text = bytes('the quick brown fox jumps over the lazy dog; '.repeat(3000));
  const ints = new Uint8Array(new Int32Array(Array.from({ length: 50000 }, (_, i) => i % 1000)).buffer);
  return { empty: new Uint8Array(0), one: Uint8Array.from([42]), twelve: bytes('abcdabcdabcd'), noise, text, ints,
    zeros: new Uint8Array(300000) };
}

test('xxh32 matches the reference values', () => {
  assert.equal(xxh32(bytes('')), 0x02cc5d05);
  assert.equal(xxh32(bytes('a')), 0x550d7456);
  assert.equal(xxh32(bytes('abc')), 0x32d153ff);
  assert.equal(xxh32(bytes('Nobody inspects the spammish repetition')), 0xe2293b2f);
});

test('LZ4 blocks round-trip, and an independent decoder (hyparquet) agrees', () => {
  for (const [name, data] of Object.entries(samples())) {
    const block = lz4EncodeBlock(data);
    const out = new Uint8Array(data.length);
    assert.equal(lz4DecodeBlock(block, out), data.length, name);
    assert.deepEqual(out, data, name);
    if (data.length) assert.deepEqual(decompressLz4Raw(block, data.length), data, name);
  }
  assert.ok(lz4EncodeBlock(samples().text).length < 2000, 'repetitive text compresses');
});

test('LZ4 frames round-trip (several blocks, stored blocks, concatenated frames)', () => {
  for (const [name, data] of Object.entries(samples())) {
    assert.deepEqual(lz4FrameDecode(lz4FrameEncode(data)), data, name);
    assert.deepEqual(lz4FrameDecode(lz4FrameEncode(data, { blockSize: 4096 })), data, `${name} 4 KiB blocks`);
  }
  const { text, noise } = samples();
  const both = new Uint8Array([...lz4FrameEncode(text), ...lz4FrameEncode(noise)]);
  assert.deepEqual(lz4FrameDecode(both), new Uint8Array([...text, ...noise]));
  const broken = lz4FrameEncode(text);
  broken[6] ^= 1; // the header checksum
  assert.throws(() => lz4FrameDecode(broken), /header checksum/);
});

test('ZSTD raw frames are read by fzstd', () => {
  for (const [name, data] of Object.entries(samples())) assert.deepEqual(zstdDecode(zstdRawFrameEncode(data)), data, name);
});

test('LZ4 frames with linked blocks (liblz4 default): a match reaches into the block before', () => {
  const flg = 0x40; // version 01, blocks linked
  const bd = 0x40; // 64 KiB blocks
  const hc = (xxh32(Uint8Array.from([flg, bd])) >>> 8) & 255;
  const word = (v) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
  const first = [...bytes('abcdefgh')];
  const second = [0x04, 8, 0, 0x50, ...bytes('VWXYZ')]; // match of 8 at offset 8, then 5 literals
  const frame = Uint8Array.from([0x04, 0x22, 0x4d, 0x18, flg, bd, hc, ...word((first.length | 0x80000000) >>> 0), ...first,
    ...word(second.length), ...second, ...word(0)]);
  assert.equal(new TextDecoder().decode(lz4FrameDecode(frame)), 'abcdefghabcdefghVWXYZ');
});
