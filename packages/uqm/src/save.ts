/**
 * The 0.8 save file (`uqmsave.NN`, uqm.md §5.2) and MegaMod's (§5.3): a magic, then chunks — tag, u32
 * size, body — every known one declared, unknown ones kept in place.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  bytes,
  chunk,
  chunkBody,
  chunkList,
  decode,
  fourcc,
  i32le,
  magic,
  map,
  remaining,
  struct,
  switchOn,
  u32le,
  u8,
  withHooks,
  type ChunkEntry,
  type Codec,
  type TypeOf,
} from '@savekit/core';
import { jsonBytes, jsonRecord, type MisfitPart, type NamesMisfitPart } from '@savekit/core/kit';
import * as E from 'fp-ts/lib/Either.js';
import { gameState, MEGAMOD_STATE_SIZES, revisionOfSize, type GameState } from './game-state.js';
import {
  battleGroups,
  encounterEntry,
  eventEntry,
  globalState,
  groupList,
  ipGroupEntry,
  name16,
  name32,
  queue,
  raceEntry,
  restText,
  shipEntry,
  sisCore,
  starDesc,
  summaryTail,
} from './records.js';
import { starInfo } from './star-info.js';

/** The magics: vanilla 0.8 `UMS\x01`, MegaMod's `MMV4` (current), `MMV3` and `MEGA`. */
export type SaveMagic = 'UMS\x01' | 'MMV4' | 'MMV3' | 'MEGA';

/** The chunk framing: a four-byte tag, a u32 size, the body (no padding). */
export const chunkFraming = { marker: fourcc(), length: u32le };

// The fields of the `Summ` chunk before the name, by magic (MegaMod adds difficulty, seed, …).
const vanillaSummary = {
  sis: sisCore,
  shipName: name16,
  commanderName: name16,
  planetName: name16,
  summary: summaryTail,
};
const megaModSummary = {
  sis: sisCore,
  shipName: name32,
  commanderName: name32,
  planetName: name32,
  difficulty: u8,
  extended: u8,
  nomad: u8,
  seed: i32le,
  shipSeed: u8,
  summary: summaryTail,
  resFactor: u8,
};
const { shipSeed: _, ...mmv3Summary } = megaModSummary;
const megaSummary = { ...mmv3Summary, shipName: name16, commanderName: name16, planetName: name16 };
const summaryFieldSpecs = {
  'UMS\x01': vanillaSummary,
  MMV4: megaModSummary,
  MMV3: mmv3Summary,
  MEGA: megaSummary,
} as const;

/** The fields of the `Summ` chunk before the name, by magic (MegaMod adds difficulty, seed, …). */
export const summaryFields = {
  'UMS\x01': struct(vanillaSummary),
  MMV4: struct(megaModSummary),
  MMV3: struct(mmv3Summary),
  MEGA: struct(megaSummary),
} as const;

/** The `Summ` chunk's value: the SIS state and load-menu summary (MegaMod: more), and the save's name. */
export type Summary = TypeOf<(typeof summaryFields)['UMS\x01']> &
  Partial<Omit<TypeOf<(typeof summaryFields)['MMV4']>, keyof TypeOf<(typeof summaryFields)['UMS\x01']>>> & {
    name: string | { bytes: Uint8Array };
  };

/** The bytes of the `Summ` chunk's fields that its size counts (vanilla's: 160). */
const SUMMARY_COUNTED = 160;

/**
 * The leading `Summ` chunk, seen as its fields and the save's name (`chunkBody`: the framing is
 * layout). Its size is 160 + the name's length — in MegaMod too, although MegaMod writes more
 * (uqm.md §5.3): the fields past vanilla's 160 bytes are bytes the size does not count (`uncounted`),
 * and the name is the rest of the chunk.
 */
function summaryChunk(kind: SaveMagic): Codec<Summary> {
  const fields = summaryFieldSpecs[kind];
  const uncounted = (summaryFields[kind].size as number) - SUMMARY_COUNTED;
  return chunkBody(
    { ...chunkFraming, uncounted },
    'Summ',
    struct({ ...fields, name: restText }, `summary(${JSON.stringify(kind)})`),
  ) as unknown as Codec<Summary>;
}

// The entry names of each revision, newest first (the encoder picks the revision by them).
let revisionNames: Array<{ revision: number; names: ReadonlyArray<string> }> | undefined;
function namesByRevision() {
  revisionNames ??= [5, 4, 3, 2, 1, 0].map((revision) => {
    const def = gameState(revision).def;
    return { revision, names: def.type === 'bits' ? def.fields.map((f) => f.name) : [] };
  });
  return revisionNames;
}

/** The case of each game-state revision (`rev0` vanilla … `rev5` MMV4), and `raw` for none. */
type StateCase = `rev${number}` | 'raw';

/**
 * A revision's game state, charged one unit of work per bit (the bit fields are read a bit at a time,
 * 1,238 of them in vanilla's 410 entries): a file of many GmSt chunks costs what its entries cost.
 */
function chargedState(revision: number): Codec<GameState> {
  const state = gameState(revision);
  return withHooks(state, {
    beforeRead({ reader }) {
      reader.work((state.size ?? 0) * 8);
    },
  });
}

/** A game state of no known revision's size: its bytes, with a warning. */
const rawState = withHooks(struct({ raw: bytes('rest') }), {
  afterRead({ raw }, { reader }) {
    reader.warn(
      'game-state-size',
      `a game state of ${raw.length} bytes is no known revision (155 vanilla; MegaMod 157, 229, 297, 305, 309); kept as bytes`,
    );
  },
});

/** The case a game-state value is written with: `raw` for `{ raw }`, else the revision whose entries it has. */
function stateCase(value: GameState | { raw: Uint8Array }): StateCase {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('expected the game state: an object of entries, or { raw }');
  if (Object.hasOwn(value, 'raw')) {
    if (Object.keys(value).length !== 1) throw new Error('a game state kept as bytes is { raw } and nothing else');
    return 'raw';
  }
  const count = Object.keys(value).length;
  // The revision is the one whose entries the value has: exactly its names, each an own entry.
  for (const { revision, names } of namesByRevision())
    if (count === names.length && names.every((n) => Object.hasOwn(value, n))) return `rev${revision}`;
  throw new Error('the game state matches no revision: its entries are not those of vanilla or a MegaMod revision');
}

/**
 * The `GmSt` chunk: the game state of the revision its size names, or its bytes when no revision has
 * that size — a `switchOn` the chunk's size (`remaining()`). Writing checks the size back, so bytes
 * of a known revision's size are refused as `{ raw }`. Its JSON is a null-prototype record of entry
 * names (`jsonRecord`), so a name such as `__proto__` stays an own entry (and is refused on encode as
 * no revision's).
 */
export const gameStateChunk: Codec<GameState | { raw: Uint8Array }> = switchOn(
  remaining(),
  {
    ...Object.fromEntries(MEGAMOD_STATE_SIZES.map((_, revision) => [`rev${revision}`, chargedState(revision)])),
    raw: rawState,
  } as Record<StateCase, Codec<GameState | { raw: Uint8Array }>>,
  {
    name: 'gameStateChunk',
    json: t.union([t.type({ raw: jsonBytes() }), jsonRecord(t.number)]) as unknown as t.Type<
      GameState | { raw: Uint8Array },
      unknown,
      unknown
    >,
    select: (size): StateCase => {
      const revision = revisionOfSize(size);
      return revision === undefined ? 'raw' : `rev${revision}`;
    },
    caseOf: stateCase,
  },
);

/** The chunks a save of this magic may hold after `Summ`, by tag: their bodies' codecs. */
export function knownChunks(kind: SaveMagic) {
  const megamod = kind !== 'UMS\x01';
  return {
    GlSt: globalState,
    GmSt: gameStateChunk,
    RacQ: queue(raceEntry),
    NpcQ: queue(shipEntry),
    IGpQ: queue(ipGroupEntry),
    ShpQ: queue(shipEntry),
    StwQ: queue(shipEntry),
    Evts: queue(eventEntry),
    Enct: queue(encounterEntry),
    Scan: starInfo(megamod ? 108 : 12),
    Grps: groupList,
    BtGp: battleGroups,
    Star: starDesc,
  };
}

/** The chunks a save may hold after `Summ`, by tag (their bodies' codecs). */
export type KnownChunks = ReturnType<typeof knownChunks>;

/** A chunk after `Summ`: a known one decoded, an unknown one kept as `{ id, raw }`. */
export type SaveChunk = ChunkEntry<KnownChunks>;

/** A decoded 0.8 or MegaMod save. */
export interface UqmSave {
  /** Which program wrote it: vanilla 0.8 (`UMS\x01`) or MegaMod (`MMV4`, `MMV3`, `MEGA`). */
  magic: SaveMagic;
  /** The `Summ` chunk. */
  summary: Summary;
  /** Every other chunk, in file order. */
  chunks: SaveChunk[];
}

const fileCodecs = new Map<SaveMagic, Codec<UqmSave>>();

/**
 * The chunks after `Summ`: any chunk list as read (the game's rules are checked by {@link uqmSave}'s
 * hooks), with a model for tools of the sequences the game writes — `GlSt`, `GmSt`, any chunks,
 * `Star` last — so generated saves keep those rules.
 */
function chunkSequence(kind: SaveMagic): Codec<SaveChunk[]> {
  const known = knownChunks(kind);
  const list = chunkList(chunkFraming, known) as Codec<SaveChunk[]>;
  const written = struct({
    glst: chunk(chunkFraming, 'GlSt', known.GlSt),
    gmst: chunk(chunkFraming, 'GmSt', known.GmSt),
    middle: list,
    star: chunk(chunkFraming, 'Star', known.Star),
  });
  type Written = TypeOf<typeof written>;
  const model = map(written, {
    name: 'chunks',
    decode: ({ glst, gmst, middle, star }): SaveChunk[] => [glst, gmst, ...middle, star] as SaveChunk[],
    encode: (chunks): Written => {
      if (chunks.length < 3) throw new Error('expected GlSt, GmSt, …, Star');
      return {
        glst: chunks[0],
        gmst: chunks[1],
        middle: chunks.slice(2, -1),
        star: chunks[chunks.length - 1],
      } as unknown as Written;
    },
  });
  return map(list, { name: list.name, decode: (c) => c, encode: (c) => c, json: list.json, model: () => model });
}

/** The file of one magic: the magic, the `Summ` chunk of that magic's layout, the chunks. */
function fileCodec(kind: SaveMagic): Codec<UqmSave> {
  let codec = fileCodecs.get(kind);
  if (codec === undefined) {
    codec = struct({
      magic: magic(kind),
      summary: summaryChunk(kind),
      chunks: chunkSequence(kind),
    }) as unknown as Codec<UqmSave>;
    fileCodecs.set(kind, codec);
  }
  return codec;
}

/**
 * What the game's loader and writer require of the chunk sequence: `GlSt` and `GmSt` right after
 * `Summ` (read by position), and a `Star` chunk (always written, last): a file without one was cut
 * short at a chunk boundary.
 */
function structureProblem(save: UqmSave): string | undefined {
  const ids = save.chunks.map((c) => (typeof c === 'object' && c !== null ? c.id : undefined));
  if (ids[0] !== 'GlSt' || ids[1] !== 'GmSt')
    return `GlSt and GmSt must follow Summ (the loader reads them by position); found ${ids.slice(0, 2).join(', ') || 'nothing'}`;
  if (!ids.includes('Star'))
    return 'the save ends without its Star chunk, which the game always writes last: the file is cut short';
  return undefined;
}

const MAGICS: ReadonlyArray<SaveMagic> = ['UMS\x01', 'MMV4', 'MMV3', 'MEGA'];

/** Whether a four-character code is the magic of a 0.8 or MegaMod save. */
export function isSaveMagic(text: string): text is SaveMagic {
  return MAGICS.includes(text as SaveMagic);
}

/** The magic at the start of `bytes`, if it is one of a 0.8 or MegaMod save. */
export function magicOf(bytes: Uint8Array): SaveMagic | undefined {
  const read = decode(fourcc(), bytes.subarray(0, 4));
  return E.isRight(read) && isSaveMagic(read.right.value) ? read.right.value : undefined;
}

/** The magics of the JSON form, for a message naming them (`toJson` of a save without one). */
const MAGIC_JSON = t.keyof(Object.fromEntries(MAGICS.map((m) => [m, null])) as Record<string, null>, 'magic');

/** A 0.8 or MegaMod save's JSON type: the file's of its magic (`toJson` looks into it). */
class SaveJson extends t.Type<UqmSave, unknown, unknown> implements NamesMisfitPart {
  constructor() {
    super(
      'UqmSave',
      (u): u is UqmSave =>
        typeof u === 'object' &&
        u !== null &&
        MAGICS.includes((u as UqmSave).magic) &&
        fileCodec((u as UqmSave).magic).json.is(u),
      (u, c) => {
        const kind = (u as { magic?: unknown })?.magic;
        if (typeof kind !== 'string' || !isSaveMagic(kind))
          return t.failure(u, c, 'expected a save with magic UMS\\u0001, MMV4, MMV3 or MEGA');
        return fileCodec(kind).json.validate(u, c);
      },
      (a) => fileCodec(a.magic).json.encode(a),
    );
  }

  misfitPart(value: unknown): MisfitPart | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const magic = (value as { magic?: unknown }).magic;
    if (typeof magic !== 'string' || !isSaveMagic(magic)) return { key: 'magic', type: MAGIC_JSON, value: magic };
    const file = fileCodec(magic).json;
    return file.is(value) ? undefined : { type: file, value };
  }
}

const saveJson = new SaveJson();

/**
 * A 0.8 or MegaMod save file: the file of the magic its first four bytes name (`switchOn`). Vanilla
 * and MegaMod differ in the `Summ` layout (read by magic: MegaMod's size field understates it), the
 * game-state size (by revision) and the `Scan` record size. The game's rules on the chunk sequence
 * (`structureProblem`) are hooks: checked after reading and before writing.
 */
export const uqmSave: Codec<UqmSave> = withHooks(
  switchOn(
    fourcc(),
    {
      'UMS\x01': fileCodec('UMS\x01'),
      MMV4: fileCodec('MMV4'),
      MMV3: fileCodec('MMV3'),
      MEGA: fileCodec('MEGA'),
    },
    {
      name: 'uqmSave',
      json: saveJson,
      caseOf: (save) => save.magic,
      unknown: (found) => `not a UQM save: magic ${JSON.stringify(found)} is none of UMS\\u0001, MMV4, MMV3, MEGA`,
    },
  ),
  {
    afterRead(save, { reader }) {
      const problem = structureProblem(save);
      if (problem !== undefined) throw reader.error(problem);
    },
    beforeWrite(save, { writer }) {
      if (typeof save !== 'object' || save === null || !isSaveMagic(save.magic))
        throw writer.error('expected a save with its magic');
      const problem = Array.isArray(save.chunks) ? structureProblem(save) : 'expected the chunks';
      if (problem !== undefined) throw writer.error(problem);
    },
  },
);
