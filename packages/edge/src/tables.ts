/**
 * The engine's structure tables (edge.md §6): for each EDGE release, every structure it saves with
 * its fields, their declared kind and size, and how each is really encoded. Files describe
 * themselves in `Stru` chunks, but a declared size cannot tell an int from a float (both "NUMERIC 4",
 * and a float takes 6 bytes), so the reader needs these tables to decode floats as floats.
 *
 * @module
 */
import { bytes, u16le, u8, type AnyCodec } from '@savekit/core';
import type { FieldKind, KnownField, KnownStruct } from '@savekit/core/schema';
import { indexRef } from './references.js';
import {
  edgeAngle,
  edgeBoolean,
  edgeByte,
  edgeFloat,
  edgeInt,
  edgeShort,
  edgeString,
  edgeVec2,
  edgeVec3,
} from './primitives.js';

/** How a field's value is encoded in the data, as the engine's put/get routines do it. */
export type FieldEncoding =
  | 'int'
  | 'enum'
  | 'angle'
  | 'bool'
  | 'short'
  | 'byte'
  | 'float'
  | 'vec2'
  | 'vec3'
  | 'string'
  | 'index'
  | 'struct'
  | 'declaredFloatString';

/** A field of a release table: its name, real encoding, element count and referred array or structure. */
export interface TableField {
  readonly name: string;
  readonly encoding: FieldEncoding;
  readonly count: number;
  readonly ref?: string;
}

const NUMERIC: Readonly<Record<string, { size: number; codec: AnyCodec; zero: () => unknown }>> = {
  int: { size: 4, codec: edgeInt, zero: () => 0 },
  enum: { size: 4, codec: edgeInt, zero: () => 0 },
  angle: { size: 4, codec: edgeAngle, zero: () => 0 },
  bool: { size: 4, codec: edgeBoolean, zero: () => false },
  short: { size: 2, codec: edgeShort, zero: () => 0 },
  byte: { size: 1, codec: edgeByte, zero: () => 0 },
  float: { size: 4, codec: edgeFloat, zero: () => 0 },
  vec2: { size: 8, codec: edgeVec2, zero: () => [0, 0] },
  vec3: { size: 12, codec: edgeVec3, zero: () => [0, 0, 0] },
  // EDGE 1.27 declares mobj_t.currentattack as a float and writes a string (edge.md §6).
  declaredFloatString: { size: 4, codec: edgeString, zero: () => null },
};

/** Parses `name:type` items: `x:float`, `armours:float*4`, `mo:I(mobjs)`, `spawnpoint:T(spawnpoint_t)`, `info:S`. */
function fields(text: string): TableField[] {
  return text
    .trim()
    .split(/\s+/)
    .map((item) => {
      const m = /^([A-Za-z_0-9]+):([A-Za-z0-9]+)(?:\(([A-Za-z_0-9]+)\))?(?:\*(\d+))?$/.exec(item);
      if (m === null) throw new Error(`bad field spec ${item}`);
      const [, name, type, ref, count] = m;
      const encoding: FieldEncoding =
        type === 'S' ? 'string' : type === 'I' ? 'index' : type === 'T' ? 'struct' : (type as FieldEncoding);
      if (encoding !== 'string' && encoding !== 'index' && encoding !== 'struct' && !(encoding in NUMERIC))
        throw new Error(`bad field type ${type}`);
      return {
        name: name!,
        encoding,
        count: count === undefined ? 1 : Number(count),
        ...(ref !== undefined ? { ref } : {}),
      };
    });
}

function known(spec: TableField): KnownField {
  if (spec.encoding === 'string')
    return { name: spec.name, kind: 'string', size: 0, count: spec.count, codec: edgeString, default: () => null };
  const ref = spec.ref !== undefined ? { ref: spec.ref } : {};
  if (spec.encoding === 'index')
    return {
      name: spec.name,
      kind: 'index',
      size: 4,
      count: spec.count,
      ...ref,
      codec: indexRef(spec.ref),
      default: () => null,
    };
  if (spec.encoding === 'struct')
    return { name: spec.name, kind: 'struct', size: 0, count: spec.count, ...ref, default: () => null };
  const n = NUMERIC[spec.encoding]!; // fields() accepts only these encodings
  return { name: spec.name, kind: 'numeric', size: n.size, count: spec.count, codec: n.codec, default: n.zero };
}

/** A structure of a table: its name, marker and fields in the engine's order. */
export interface TableStruct {
  readonly name: string;
  readonly marker: string;
  readonly fields: ReadonlyArray<TableField>;
}

/** One release's tables: structures in the order the engine writes their `Stru` chunks, arrays likewise. */
export interface EngineTable {
  /** Which release (`1.27`, `1.29`, `1.35`, `classic`). */
  readonly release: string;
  readonly structs: ReadonlyArray<TableStruct>;
  /** Array name → structure name, in the order of the `Arry` and `Data` chunks. */
  readonly arrays: ReadonlyArray<readonly [string, string]>;
}

const s = (name: string, marker: string, text: string): TableStruct => ({ name, marker, fields: fields(text) });

/**
 * A reader table of one structure, from a compact field list: `name:type` items separated by spaces,
 * where type is an encoding (`int`, `enum`, `angle`, `bool`, `short`, `byte`, `float`, `vec2`, `vec3`),
 * `S` (string), `I(array)` (INDEX into an array) or `T(struct)` (an embedded structure), optionally
 * followed by `*count`. It says how each field is really stored, whatever size a file declares.
 *
 * @example
 * ```ts
 * import { tableStruct } from '@savekit/edge';
 * const spot = tableStruct('shootspot_t', 'shot', 'x:float y:float z:float owner:I(mobjs) tags:int*4');
 * ```
 */
export function tableStruct(name: string, marker: string, fieldList: string): TableStruct {
  return s(name, marker, fieldList);
}

/**
 * A release table with the reader's own structures in front: a structure named in `structs` is read
 * by that table instead of the release's; the others keep the release's. The arrays are the release's.
 */
export function withReaderTables(base: EngineTable, structs: ReadonlyArray<TableStruct>): EngineTable {
  if (structs.length === 0) return base;
  const mine = new Set(structs.map((st) => st.name));
  return {
    release: `${base.release}+${structs.map((st) => st.name).join(',')}`,
    structs: [...structs, ...base.structs.filter((st) => !mine.has(st.name))],
    arrays: base.arrays,
  };
}

const MOBJ_129 =
  'x:float y:float z:float angle:angle floorz:float ceilingz:float dropoffz:float radius:float height:float mom:vec3 health:float speed:float fuse:int ' +
  'info:S state:S next_state:S tics:int flags:int extendedflags:int hyperflags:int movedir:int movecount:int reactiontime:int threshold:int ' +
  'player:I(players) spawnpoint:T(spawnpoint_t) origheight:float visibility:float vis_target:float vertangle:float spreadcount:int side:int currentattack:S ' +
  'source:I(mobjs) target:I(mobjs) tracer:I(mobjs) supportobj:I(mobjs) above_mo:I(mobjs) below_mo:I(mobjs) ride_dx:float ride_dy:float on_ladder:int ' +
  'path_trigger:S dlight_qty:float dlight_target:float shot_count:int';

const PLAYER = (
  armour: number,
  weapons: number,
  ammo: number,
  extra: { flags: boolean; idle: boolean; v135: boolean },
) =>
  'pnum:int playerstate:int ' +
  (extra.flags ? 'playerflags:int ' : '') +
  'playername:S mo:I(mobjs) viewz:float viewheight:float deltaviewheight:float std_viewheight:float ' +
  (extra.v135 ? 'zoom_fov:int actual_speed:float ' : '') +
  `health:float armours:float*${armour} ` +
  (extra.v135 ? `armour_types:S*${armour} ` : '') +
  'powers:float*16 ' +
  (extra.v135 ? 'keep_powers:int ' : '') +
  `cards_ke:enum frags:int totalfrags:int ready_wp:int pending_wp:int weapons:T(playerweapon_t)*${weapons} ammo:T(playerammo_t)*${ammo} ` +
  'cheats:int ' +
  (extra.v135 ? 'refire:int ' : '') +
  'killcount:int itemcount:int secretcount:int jumpwait:int ' +
  (extra.idle ? 'idlewait:int ' : '') +
  'air_in_lungs:int underwater:bool flash_b:bool psprites:T(psprite_t)*4';

const COMMON_129 = {
  spawnpoint: s('spawnpoint_t', 'spwn', 'x:float y:float z:float angle:angle slope:float info:S flags:int'),
  itemq: s('iteminque_t', 'itmq', 'spawnpoint:T(spawnpoint_t) time:int'),
  ammo: s('playerammo_t', 'ammo', 'num:int max:int'),
  pspr: s('pspdef_t', 'pspr', 'state:S next_state:S tics:int visibility:float vis_target:float'),
  surf: s('surface_t', 'surf', 'image:S translucency:float offset:vec2 scroll:vec2 x_mat:vec2 y_mat:vec2 override_p:S'),
  side: s('side_t', 'side', 'top:T(surface_t) middle:T(surface_t) bottom:T(surface_t)'),
  line: s('line_t', 'line', 'flags:int tag:int count:int special:S'),
  rprp: s(
    'region_properties_t',
    'rprp',
    'lightlevel_i:int colourmap:S special:S gravity:float friction:float viscosity:float drag:float push:vec3',
  ),
  exfl: s(
    'extrafloor_t',
    'exfl',
    'higher:I(extrafloors) lower:I(extrafloors) sector:I(sectors) top_h:float bottom_h:float top:S bottom:S p:S ef_line:I(lines) ctrl_next:I(extrafloors)',
  ),
  sect: s(
    'sector_t',
    'sect',
    'floor:T(surface_t) ceil:T(surface_t) f_h:float c_h:float props:T(region_properties_t) p:S exfloor_used:int control_floors:I(extrafloors) ' +
      'sound_player:int bottom_ef:I(extrafloors) top_ef:I(extrafloors) bottom_liq:I(extrafloors) top_liq:I(extrafloors)',
  ),
  butn: s('button_t', 'butn', 'line:I(lines) where:enum bimage:S btimer:int'),
  lite: s(
    'light_t',
    'lite',
    'type:S sector:I(sectors) count:int minlight:int maxlight:int direction:int fade_count:int',
  ),
  dtip: s(
    'drawtip_t',
    'dtip',
    'x_pos:float y_pos:float left_just:int colourmap_name:S translucency:float delay:int tip_text:S tip_graphic:S playsound:bool fade_time:int fade_target:float',
  ),
  pmov: s(
    'plane_move_t',
    'pmov',
    'type:S sector:I(sectors) is_ceiling:bool startheight:float destheight:float speed:float crush:bool direction:int olddirection:int tag:int waited:int ' +
      'sfxstarted:bool newspecial:int new_image:S',
  ),
};

const ARRAYS_129: ReadonlyArray<readonly [string, string]> = [
  ['plane_movers', 'plane_move_t'],
  ['tip_slots', 'drawtip_t'],
  ['r_triggers', 'rad_trigger_t'],
  ['lights', 'light_t'],
  ['buttonlist', 'button_t'],
  ['sectors', 'sector_t'],
  ['extrafloors', 'extrafloor_t'],
  ['lines', 'line_t'],
  ['sides', 'side_t'],
  ['players', 'player_t'],
  ['itemquehead', 'iteminque_t'],
  ['mobjs', 'mobj_t'],
];

/** The field lists of the four structures whose fields differ between releases. */
interface ReleaseFields {
  readonly trig: string;
  readonly weap: string;
  readonly play: string;
  readonly mobj: string;
  /** Structures only this release has, registered last (so written first). */
  readonly extra?: TableStruct[];
}

/** A release's structures in the engine's registration order: the common ones and its own four. */
function ordered(c: typeof COMMON_129, fields: ReleaseFields): TableStruct[] {
  const rest = {
    extra: fields.extra,
    trig: s('rad_trigger_t', 'trig', fields.trig),
    weap: s('playerweapon_t', 'weap', fields.weap),
    play: s('player_t', 'play', fields.play),
    mobj: s('mobj_t', 'mobj', fields.mobj),
  };
  return [
    ...(rest.extra ?? []),
    c.pmov,
    c.dtip,
    rest.trig,
    c.lite,
    c.butn,
    c.sect,
    c.exfl,
    c.rprp,
    c.line,
    c.side,
    c.surf,
    c.pspr,
    c.ammo,
    rest.weap,
    rest.play,
    c.itemq,
    c.spawnpoint,
    rest.mobj,
  ];
}

const TRIG_127 =
  'info:S disabled:bool activated:bool repeats_left:int repeat_delay:int state:int wait_tics:int tip_slot:int';

/** EDGE 1.25–1.28 (read from 1.27, commit 67455652e). */
export const TABLE_127: EngineTable = {
  release: '1.27',
  structs: ordered(COMMON_129, {
    trig: TRIG_127,
    weap: 'info:S owned:bool clip_size:int sa_clip_size:int',
    play: PLAYER(4, 32, 8, { flags: false, idle: false, v135: false }),
    mobj: MOBJ_129.replace(' hyperflags:int', '')
      .replace(' shot_count:int', '')
      .replace('currentattack:S', 'currentattack:declaredFloatString'),
  }),
  arrays: ARRAYS_129,
};

/** EDGE 1.29.00 (commit 551ef47): the main reference. */
export const TABLE_129: EngineTable = {
  release: '1.29',
  structs: ordered(COMMON_129, {
    trig: `${TRIG_127} menu_style_name:S menu_result:int`,
    weap: 'info:S owned:bool flags:int clip_size:int sa_clip_size:int',
    play: PLAYER(4, 64, 12, { flags: true, idle: true, v135: false }),
    mobj: MOBJ_129,
  }),
  arrays: ARRAYS_129,
};

const MOBJ_135 = MOBJ_129.replace(' spreadcount:int side:int', ' spreadcount:int')
  .replace('threshold:int', 'threshold:int model_skin:int tag:int side:int')
  .replace('dlight_target:float', 'dlight_target:float dlight_color:int');

const COMMON_135 = {
  ...COMMON_129,
  line: s('line_t', 'line', 'flags:int tag:int count:int special:S slide_door:S'),
  rprp: s(
    'region_properties_t',
    'rprp',
    'lightlevel_i:int colourmap:S type:int special:S gravity:float friction:float viscosity:float drag:float push:vec3',
  ),
  dtip: s(
    'drawtip_t',
    'dtip',
    'x_pos:float y_pos:float left_just:int color:int translucency:float delay:int tip_text:S tip_graphic:S playsound:bool fade_time:int fade_target:float',
  ),
  pmov: s(
    'plane_move_t',
    'pmov',
    'type:S sector:I(sectors) is_ceiling:bool is_elevator:bool startheight:float destheight:float elevheight:float speed:float crush:bool direction:int ' +
      'olddirection:int tag:int waited:int sfxstarted:bool newspecial:int new_image:S',
  ),
};

/** 1.35's fields of the four structures that change, but `mobj_t` (EDGE-classic has them too). */
const FIELDS_135 = {
  trig: `${TRIG_127} menu_style_name:S menu_result:int acti_players:int wud_tag:int wud_count:int`,
  weap: 'info:S owned:bool flags:int clip_size:int sa_clip_size:int model_skin:int',
  play: PLAYER(5, 64, 16, { flags: true, idle: true, v135: true }),
};

/** 1.35's sliding doors: a structure of its own that reuses `plane_move_t`'s marker `pmov` (edge.md §6). */
const SLIDER_135 = s(
  'slider_move_t',
  'pmov',
  'info:S line:I(lines) opening:float target:float direction:int waited:int sfxstarted:bool final_open:bool',
);

/**
 * EDGE 1.31–1.35 and 3DGE (1.35 final, commit 562a0366f). The fields added since 1.29 are those
 * edge.md §6 lists; where a new field sits among the old ones only matters for new files.
 */
export const TABLE_135: EngineTable = {
  release: '1.35',
  structs: ordered(COMMON_135, {
    ...FIELDS_135,
    mobj: MOBJ_135,
    // Registered last, so written first, as its array is.
    extra: [SLIDER_135],
  }),
  arrays: [['active_sliders', 'slider_move_t'], ...ARRAYS_129],
};

const MOBJ_CLASSIC =
  'x:float y:float z:float angle:angle floorz:float ceilingz:float dropoffz:float radius:float height:float scale:float aspect:float alpha:float mom:vec3 ' +
  'health:float spawnhealth:float speed:float fuse:int morphtimeout:int preBecome:S info:S state:S next_state:S tics:int flags:int extendedflags:int ' +
  'hyperflags:int movedir:int movecount:int reactiontime:int threshold:int model_skin:int model_scale:float model_aspect:float tag:int wud_tags:S side:int ' +
  'player:I(players) spawnpoint:T(spawnpoint_t) origheight:float visibility:float vis_target:float painchance:float vertangle:float spreadcount:int ' +
  'currentattack:S source:I(mobjs) target:I(mobjs) tracer:I(mobjs) supportobj:I(mobjs) above_mo:I(mobjs) below_mo:I(mobjs) ride_dx:float ride_dy:float ' +
  'on_ladder:int path_trigger:S dlight_qty:float dlight_target:float dlight_color:int shot_count:int lastheard:int is_voodoo:bool';

/**
 * EDGE-classic (its `sv_mobj.cc` field table for `mobj_t`; the other structures as 1.35 plus the
 * changes edge.md §6 lists). Fields it has that this table lacks are read by their declared size.
 */
export const TABLE_CLASSIC: EngineTable = {
  release: 'classic',
  structs: ordered(
    {
      ...COMMON_135,
      line: s('line_t', 'line', 'flags:int tag:int count:int side:I(sides) special:S slide_door:S'),
      pmov: s(
        'plane_move_t',
        'pmov',
        'type:S sector:I(sectors) model:I(sectors) is_ceiling:bool is_elevator:bool startheight:float destheight:float elevheight:float speed:float crush:bool ' +
          'direction:int olddirection:int tag:int waited:int sfxstarted:bool newspecial:int new_image:S',
      ),
    },
    { ...FIELDS_135, mobj: MOBJ_CLASSIC },
  ),
  arrays: ARRAYS_129,
};

/** Every table, oldest first. */
export const ENGINE_TABLES: ReadonlyArray<EngineTable> = [TABLE_127, TABLE_129, TABLE_135, TABLE_CLASSIC];

/** The table of the release that writes a version field. */
export function tableFor(version: number): EngineTable {
  if (version === 0xec) return TABLE_CLASSIC;
  if (version < 0x12900) return TABLE_127;
  if (version < 0x13000) return TABLE_129;
  return TABLE_135;
}

/** A table as the core's schema (`KnownStruct`s with the real encodings). */
export function knownStructs(table: EngineTable): KnownStruct[] {
  let found = KNOWN.get(table);
  if (found === undefined) {
    found = table.structs.map((st) => ({ name: st.name, marker: st.marker, fields: st.fields.map(known) }));
    KNOWN.set(table, found);
  }
  return found;
}

const KNOWN = new WeakMap<EngineTable, KnownStruct[]>();

/** Every (structure, field, kind) any release knows, with its encoding: what a file's definition is decoded by. */
const DICTIONARY: ReadonlyMap<string, KnownField> = (() => {
  const out = new Map<string, KnownField>();
  for (const table of ENGINE_TABLES) {
    for (const st of table.structs) {
      for (const spec of st.fields) {
        const field = known(spec);
        out.set(`${st.name}.${spec.name}.${field.kind}`, field);
      }
    }
  }
  return out;
})();

/** The field of any release with this structure, name and kind, if one knows it. */
export function knownField(struct: string, field: string, kind: FieldKind): KnownField | undefined {
  return DICTIONARY.get(`${struct}.${field}.${kind}`);
}

/**
 * How a NUMERIC field no release knows is read: by its declared size, as the engine skips it — a
 * byte, a short, an int, or (size 6, the design doc's declaration of a float) a float; other sizes
 * as raw bytes.
 */
export function numericBySize(size: number): AnyCodec {
  if (size === 1) return u8;
  if (size === 2) return u16le;
  if (size === 4) return edgeInt;
  if (size === 6) return edgeFloat;
  return bytes(size);
}
