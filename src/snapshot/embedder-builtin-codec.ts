/**
 * Binary form of the built-in embedder's model, stored as one BLOB in the snapshot:
 *   "BLSA" | u32 format version | u32 header length | header JSON (padded to 4 bytes)
 *   | featureHashes u32[n] | featureWeights f32[n] | rows f32[n * dims]
 * Little-endian throughout (typed arrays are copied as is; every supported platform is LE).
 */
import os from 'node:os';
import type { BuiltinModel } from './embedder-builtin-model.ts';

const MAGIC = 'BLSA';
const FORMAT_VERSION = 1;

interface Header {
  dims: number;
  features: number;
  unknownWordIdf: number;
  unitWeights: BuiltinModel['unitWeights'];
  info: BuiltinModel['info'];
}

function assertLittleEndian(): void {
  if (os.endianness() !== 'LE') throw new Error('the built-in embedder model format needs a little-endian platform');
}

export function encodeModel(model: BuiltinModel): Buffer {
  assertLittleEndian();
  const n = model.featureHashes.length;
  const header: Header = {
    dims: model.dims,
    features: n,
    unknownWordIdf: model.unknownWordIdf,
    unitWeights: model.unitWeights,
    info: model.info,
  };
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  const pad = (4 - (json.length % 4)) % 4;
  if (pad) json = Buffer.concat([json, Buffer.alloc(pad, 0x20)]);
  const prefix = Buffer.alloc(12);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(FORMAT_VERSION, 4);
  prefix.writeUInt32LE(json.length, 8);
  const bytes = (a: Uint32Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return Buffer.concat([prefix, json, bytes(model.featureHashes), bytes(model.featureWeights), bytes(model.rows)]);
}

export function decodeModel(input: Uint8Array): BuiltinModel {
  assertLittleEndian();
  const buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== MAGIC) {
    throw new Error('embedder_model does not hold a built-in embedder model (bad magic)');
  }
  const version = buf.readUInt32LE(4);
  if (version !== FORMAT_VERSION) {
    throw new Error(`built-in embedder model format ${version} is not supported (expected ${FORMAT_VERSION}); rebuild the snapshot`);
  }
  const headerLength = buf.readUInt32LE(8);
  const header = JSON.parse(buf.toString('utf8', 12, 12 + headerLength)) as Header;
  const n = header.features;
  const expected = 12 + headerLength + n * 8 + n * header.dims * 4;
  if (buf.length !== expected) {
    throw new Error(`built-in embedder model is truncated or corrupt (${buf.length} bytes, expected ${expected})`);
  }
  // Copy into fresh, aligned buffers: SQLite BLOBs come back at arbitrary offsets.
  const body = new Uint8Array(buf.subarray(12 + headerLength)).buffer;
  return {
    dims: header.dims,
    featureHashes: new Uint32Array(body, 0, n),
    featureWeights: new Float32Array(body, n * 4, n),
    rows: new Float32Array(body, n * 8, n * header.dims),
    unknownWordIdf: header.unknownWordIdf,
    unitWeights: header.unitWeights,
    info: header.info,
  };
}
