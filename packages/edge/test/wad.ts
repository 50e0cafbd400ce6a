// A PWAD writer for the tests, and a small Doom-format map built record by record (from the Doom map
// lump layouts, not the package's code).

/** A PWAD holding one map: its marker lump, then the map lumps given, in order. */
export function pwad(map: string, lumps: Array<[string, Uint8Array]>): Uint8Array {
  const all: Array<[string, Uint8Array]> = [[map, new Uint8Array(0)], ...lumps];
  const dataSize = all.reduce((n, [, b]) => n + b.length, 0);
  const out = new Uint8Array(12 + dataSize + all.length * 16);
  const view = new DataView(out.buffer);
  out.set(Buffer.from('PWAD'));
  view.setInt32(4, all.length, true);
  view.setInt32(8, 12 + dataSize, true);
  let at = 12;
  all.forEach(([name, bytes], i) => {
    out.set(bytes, at);
    const e = 12 + dataSize + i * 16;
    view.setInt32(e, at, true);
    view.setInt32(e + 4, bytes.length, true);
    out.set(Buffer.from(name.padEnd(8, '\0').slice(0, 8), 'latin1'), e + 8);
    at += bytes.length;
  });
  return out;
}

/** Records of little-endian int16 fields (8-byte names as text), concatenated. */
function records(rows: Array<Array<number | string>>): Uint8Array {
  const parts = rows.map((row) => {
    const bytes: number[] = [];
    for (const v of row) {
      if (typeof v === 'string') bytes.push(...Buffer.from(v.padEnd(8, '\0').slice(0, 8), 'latin1'));
      else bytes.push(v & 0xff, (v >> 8) & 0xff);
    }
    return bytes;
  });
  return Uint8Array.from(parts.flat());
}

/** A Doom map's records, as numbers (what a test edits before building the lumps). */
export interface DoomMap {
  /** x, y */
  vertices: Array<[number, number]>;
  /** x offset, y offset, upper, lower, middle texture, sector */
  sides: Array<[number, number, string, string, string, number]>;
  /** v1, v2, flags, special, tag, right side, left side (-1 none) */
  lines: Array<[number, number, number, number, number, number, number]>;
  /** floor, ceiling, floor flat, ceiling flat, light, special, tag */
  sectors: Array<[number, number, string, string, number, number, number]>;
  /** x, y, angle, type, options */
  things: Array<[number, number, number, number, number]>;
}

/**
 * A 128 × 128 room split at x = 64 into two sectors by a two-sided line (special 1, tag 7,
 * pass-through), and three things.
 */
export function twoRooms(): DoomMap {
  return {
    vertices: [
      [0, 0],
      [128, 0],
      [128, 128],
      [0, 128],
      [64, 0],
      [64, 128],
    ],
    sides: [
      [0, 0, '-', '-', 'STARTAN3', 0],
      [0, 0, '-', '-', 'STARTAN3', 1],
      [0, 0, '-', '-', 'STARTAN3', 1],
      [0, 0, '-', '-', 'STARTAN3', 1],
      [0, 0, '-', '-', 'STARTAN3', 0],
      [0, 0, '-', '-', 'STARTAN3', 0],
      [0, 0, 'STEP1', '-', '-', 0],
      [0, 0, '-', 'STEP1', '-', 1],
    ],
    lines: [
      [0, 4, 1, 0, 0, 0, -1],
      [4, 1, 1, 0, 0, 1, -1],
      [1, 2, 1, 0, 0, 2, -1],
      [2, 5, 1, 0, 0, 3, -1],
      [5, 3, 1, 0, 0, 4, -1],
      [3, 0, 1, 0, 0, 5, -1],
      [4, 5, 4 | 0x200 | 0x10, 1, 7, 6, 7],
    ],
    sectors: [
      [0, 128, 'FLOOR4_8', 'CEIL3_5', 160, 0, 0],
      [16, 96, 'FLOOR4_8', 'CEIL3_5', 192, 9, 7],
    ],
    things: [
      [32, 32, 90, 1, 7],
      [96, 64, 180, 3001, 12],
      [100, 100, 0, 2011, 7],
    ],
  };
}

/** The map's lumps, in Doom's order. */
export function mapLumps(map: DoomMap): Array<[string, Uint8Array]> {
  const lumps = lumpsOf(map);
  return (['THINGS', 'LINEDEFS', 'SIDEDEFS', 'VERTEXES', 'SECTORS'] as const).map((name) => [name, lumps[name]]);
}

/** The map's lumps by name. */
export function lumpsOf(map: DoomMap): Record<'THINGS' | 'LINEDEFS' | 'SIDEDEFS' | 'VERTEXES' | 'SECTORS', Uint8Array> {
  return {
    THINGS: records(map.things),
    LINEDEFS: records(map.lines),
    SIDEDEFS: records(map.sides),
    VERTEXES: records(map.vertices),
    SECTORS: records(map.sectors),
  };
}
