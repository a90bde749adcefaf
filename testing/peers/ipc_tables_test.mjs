// node --test testing/peers/: the IPC tables of check_ipc.mjs survive their writers' own round
// trip (Arrow JS through every format and codec of ipc_codecs.mjs, Polars through writeIPC /
// writeIPCStream), and the Arrow JS summary agrees with Polars' on the same IPC bytes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as arrow from 'apache-arrow';
import { arrowSpecType, arrowTableSummary } from './arrow_summary.mjs';
import { ipcBodyCompression, misstatedLengths } from './check_ipc.mjs';
import { registerArrowCodecs } from './ipc_codecs.mjs';
import { arrowTables, loadPolars, writePolarsFrames } from './ipc_tables.mjs';
import { polarsSummary } from './polars_summary.mjs';

registerArrowCodecs(arrow);
const CODECS = { none: null, lz4: arrow.CompressionType.LZ4_FRAME, zstd: arrow.CompressionType.ZSTD };

test('Arrow JS tables round-trip through file and stream, uncompressed, LZ4 and ZSTD', () => {
  for (const { name, table, formats = ['file', 'stream'] } of arrowTables(arrow)) {
    const expected = arrowTableSummary(table);
    for (const kind of formats) {
      for (const [codec, type] of Object.entries(CODECS)) {
        const bytes = arrow.tableToIPC(table, kind, type);
        assert.equal(arrowTableSummary(arrow.tableFromIPC(bytes)), expected, `${name} ${kind} ${codec}`);
        if (table.numRows > 0) assert.equal(ipcBodyCompression(bytes), codec, `${name} ${kind} ${codec}`);
      }
    }
  }
});

test('the flat table has every flat type strata names, with special values', () => {
  const flat = arrowTables(arrow).find((t) => t.name === 'flat').table;
  const line = JSON.parse(arrowTableSummary(flat));
  const byName = Object.fromEntries(line.columns.map((c) => [c.name, c]));
  assert.equal(byName.u64.max, '18446744073709551615');
  assert.equal(byName.i64.min, '-9223372036854775808');
  assert.equal(byName.f64.min, '-Infinity');
  assert.equal(byName.f64_all_nan.min, 'NaN');
  assert.equal(byName.date32.min, '0001-01-01');
  assert.equal(byName.date32.max, '9999-12-31');
  assert.equal(byName.dec18_3.type, 'decimal(18,3)');
  assert.equal(byName.dec18_3.min, '-999999999999999.999');
  assert.deepEqual(new Set(line.columns.map((c) => c.type.replace(/\[.*|\(.*/, ''))),
    new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64', 'string',
      'bool', 'date', 'timestamp', 'time', 'decimal', 'binary']));
  assert.equal(arrowSpecType(new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())), 'string');
});

test('Polars reads Arrow JS IPC to the Arrow JS summary (flat and dictionaries)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ipc-tables-test-'));
  try {
    for (const { name, table } of arrowTables(arrow).filter((t) => ['dictionaries', 'nulls'].includes(t.name))) {
      const file = path.join(dir, `${name}.arrow`);
      writeFileSync(file, arrow.tableToIPC(table, 'file'));
      assert.equal(polarsSummary(file, { ipc: 'file' }), arrowTableSummary(table), name);
      const stream = path.join(dir, `${name}.arrows`);
      writeFileSync(stream, arrow.tableToIPC(table, 'stream'));
      assert.equal(polarsSummary(stream, { ipc: 'stream' }), arrowTableSummary(table), name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Polars-written IPC reads back (Polars and Arrow JS) to the frame summary', async () => {
  await loadPolars();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ipc-tables-test-'));
  try {
    const written = writePolarsFrames(dir, ['none', 'lz4', 'zstd']);
    assert.equal(written.filter((w) => w.error).length, 0, JSON.stringify(written.filter((w) => w.error)));
    for (const w of written) {
      const kind = w.file.endsWith('.arrows') ? 'stream' : 'file';
      assert.equal(polarsSummary(w.file, { ipc: kind }), w.line, w.file);
      assert.equal(arrowTableSummary(arrow.tableFromIPC(readFileSync(w.file))), w.line, `${w.file} (arrow-js)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("apache-arrow 21.2.0's LZ4 IPC states compressed lengths (not valid IPC); Polars' states the right ones", async () => {
  const { table } = arrowTables(arrow).find((t) => t.name === 'flat');
  const lz4 = arrow.tableToIPC(table, 'stream', arrow.CompressionType.LZ4_FRAME);
  assert.ok(misstatedLengths(lz4).length > 0);
  // Its ZSTD output (raw-block frames never shrink a buffer) is stored with -1 prefixes: valid.
  assert.deepEqual(misstatedLengths(arrow.tableToIPC(table, 'stream', arrow.CompressionType.ZSTD)), []);
  await loadPolars();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ipc-tables-test-'));
  try {
    for (const w of writePolarsFrames(dir, ['lz4', 'zstd'])) assert.deepEqual(misstatedLengths(readFileSync(w.file)), [], w.file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
