// The hostile-input generators: bombs that real decompressors inflate to exactly the size asked
// (checked with Node's zlib, checksums included), size claims, and deep and wide JSON.
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { hostileInputs } from '../src/index';
import { crc32OfZeros } from '../src/bombs';

const zeros = (bytes: Uint8Array) => bytes.every((b) => b === 0);

test('bombs inflate to exactly the size asked, all zeros, with valid checksums', () => {
  for (const n of [0, 1, 2, 257, 258, 259, 1000, 65_537, 1_000_003]) {
    const z = inflateSync(hostileInputs.zlibBomb(n));
    const g = gunzipSync(hostileInputs.gzipBomb(n));
    const r = inflateRawSync(hostileInputs.deflateRawBomb(n));
    expect([z.length, g.length, r.length]).toEqual([n, n, n]);
    expect(zeros(z) && zeros(g) && zeros(r)).toBe(true);
  }
});

test('bombs are about 1,032 times smaller than what they inflate to, and made without allocating it', () => {
  const mib256 = hostileInputs.zlibBomb(256 * 2 ** 20);
  expect(mib256.length).toBeLessThan(261_000);
  expect(inflateSync(mib256, { maxOutputLength: 2 ** 30 }).length).toBe(256 * 2 ** 20);
  // 4 GiB: more than a Uint8Array could hold, in 4.2 MB.
  expect(hostileInputs.gzipBomb(4 * 2 ** 30).length).toBeLessThan(4.2e6);
  expect(() => hostileInputs.zlibBomb(-1)).toThrow(RangeError);
  expect(() => hostileInputs.zlibBomb(1.5)).toThrow(RangeError);
});

test('crc32OfZeros matches a CRC-32 computed byte by byte', () => {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (let n = 0; n <= 5000; n++) {
    if ([0, 1, 2, 3, 255, 256, 4095, 5000].includes(n)) expect(crc32OfZeros(n)).toBe((crc ^ 0xffffffff) >>> 0);
    crc = table[crc & 0xff]! ^ (crc >>> 8);
  }
});

test('manyBombs: separate copies, of any kind', () => {
  const bombs = hostileInputs.manyBombs(3, 100_000, 'gzip');
  expect(bombs).toHaveLength(3);
  expect(bombs[0]).not.toBe(bombs[1]);
  for (const b of bombs) expect(gunzipSync(b).length).toBe(100_000);
  expect(inflateSync(hostileInputs.manyBombs(1, 10)[0]!).length).toBe(10);
});

test('size claims in every width and both byte orders; deep and wide JSON', () => {
  const names = hostileInputs.sizeClaims.map((c) => c.name);
  expect(names).toEqual(expect.arrayContaining(['u32le 2^32-1', 'u32be 2^32-1', 'u48 2^48-1', 'u64 2^64-1']));
  const be = hostileInputs.sizeClaims.find((c) => c.name === 'u32be 2^31')!.bytes;
  expect(new DataView(be.buffer).getUint32(0, false)).toBe(2 ** 31);

  expect(hostileInputs.deepJson().length).toBe(2_000_000);
  expect(hostileInputs.deepJson(3)).toBe('[[[]]]');
  expect(hostileInputs.deepJson(2, 'object')).toBe('{"a":{"a":0}}');
  expect((JSON.parse(hostileInputs.wideJson(1000)) as unknown[]).length).toBe(1000);
  expect(Object.keys(JSON.parse(hostileInputs.wideJson(1000, 'object')) as object)).toHaveLength(1000);
  expect(hostileInputs.wideJson(0)).toBe('[]');
});
