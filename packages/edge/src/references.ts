/**
 * References between saved objects. INDEX fields name an element of a named array (1 + its
 * position, 0 for NULL); in the document they are `{ $ref, index }` objects that also point at the
 * element itself, so removing or reordering elements renumbers them on write. Other references are
 * strings (edge.md §5), parsed here into typed values that keep their text.
 *
 * @module
 */
import {
  arrayIndex,
  fromContext,
  literal,
  map,
  refTo as coreRefTo,
  u32le,
  withModel,
  type Codec,
  type IndexRef as CoreIndexRef,
} from '@savekit/core';
import { attachTarget as attachCoreTarget } from '@savekit/core/kit';
import type { Instance } from '@savekit/core/schema';
import { EDGE_DEFINITIONS } from './context.js';

/**
 * An INDEX value that is not NULL: element `index − 1` of array `$ref` — the core's
 * {@link CoreIndexRef | IndexRef} of named arrays, whose `target` is an EDGE instance.
 */
export type IndexRef = CoreIndexRef<Instance>;

/** A reference to `target`, element of `array` (its index is recomputed on write). */
export function refTo(array: string, target: Instance, index = 0): IndexRef {
  return coreRefTo(array, target, index);
}

/** Points an existing reference at its element (not enumerable, so JSON and equality ignore it). */
export function attachTarget(ref: IndexRef, target: Instance): void {
  attachCoreTarget(ref, target);
}

/**
 * An INDEX field (u32) into array `array` (the field's declared array; `undefined` keeps whatever the
 * file says): the core's `arrayIndex`. Reads 0 as `null`; other values become {@link IndexRef}s that
 * the save codec resolves once every array is read, and renumbers on write.
 */
export function indexRef(array: string | undefined): Codec<IndexRef | null> {
  let codec = INDEX_REFS.get(array);
  if (codec === undefined) {
    const plain = arrayIndex(array) as Codec<IndexRef | null>;
    codec = withModel(plain, { model: () => indexModel(array) });
    INDEX_REFS.set(array, codec);
  }
  return codec;
}

const INDEX_REFS = new Map<string | undefined, Codec<IndexRef | null>>();

/** Most elements of an array a generated reference points into (arrays generated are small). */
const MOST_REFERENCED = 8;

/**
 * For tools (testkit's arbitraries): the references a document can hold at this point — NULL, or an
 * element of the field's array within the count its definition gives (a reference past the end is
 * refused both ways). An array no definition before it defines gets NULL only: the elements of its
 * `Data` chunk, if any, are none.
 */
function indexModel(array: string | undefined): Codec<IndexRef | null> {
  return fromContext(
    EDGE_DEFINITIONS,
    (defs) => {
      const count = array === undefined ? 0 : Math.min(defs.arrays.get(array)?.count ?? 0, MOST_REFERENCED);
      const indexes = Array.from({ length: count + 1 }, (_, i) => i) as [number, ...number[]];
      return map(literal(u32le, ...indexes) as Codec<number>, {
        name: `index(${array ?? '?'})`,
        decode: (index): IndexRef | null => (index === 0 ? null : { $ref: array ?? '', index }),
        encode: (ref) => (ref === null ? 0 : ref.index),
      });
    },
    { json: arrayIndex(array).json as never, name: `index(${array ?? '?'})`, minSize: 4 },
  );
}

// ---------------------------------------------------------------------------------------------
// String references (edge.md §5). Each parser returns undefined for text of another shape.

/** A surface: the floor (`F:n`) or ceiling (`C:n`) of sector n (0-based). */
export interface SurfaceRef {
  readonly text: string;
  readonly plane: 'floor' | 'ceiling';
  readonly sector: number;
}

/** A state: `THING:LABEL:OFFSET` (mobj) or `WEAPON:LABEL:OFFSET` (psprite); `*` means "own" / "none". */
export interface StateRef {
  readonly text: string;
  /** The thing or weapon; `*` is the object's own type. */
  readonly owner: string;
  /** The nearest labelled state, or `*`. */
  readonly label: string;
  /** 1-based offset from the label. */
  readonly offset: number;
}

/** An image: `<namespace letter>:<name>` (`T:SKY1` a texture, `F:FLOOR0_1` a flat, …). */
export interface ImageRef {
  readonly text: string;
  readonly namespace: string;
  readonly name: string;
}

/** A line or sector special, `:<ddf number>`. */
export interface SpecialRef {
  readonly text: string;
  readonly number: number;
}

/** A light type: `L:<linetype>` or `S:<sectortype>`. */
export interface LightTypeRef {
  readonly text: string;
  readonly source: 'line' | 'sector';
  readonly number: number;
}

/** A plane mover type: donut `D:F:i`/`D:C:i`, line type `L:F:n`/`L:C:n`, sector type `S:F:n`/`S:C:n`. */
export interface PlaneMoverRef {
  readonly text: string;
  readonly source: 'donut' | 'line' | 'sector';
  readonly plane: 'floor' | 'ceiling';
  readonly number: number;
}

/** An RTS script: `B:<mapid>:<index among same-CRC scripts, 1-based>:<CRC in hex>`. */
export interface ScriptRef {
  readonly text: string;
  readonly map: string;
  readonly index: number;
  readonly crc: number;
}

const int = (s: string) => (/^-?\d+$/.test(s) ? Number(s) : undefined);

/** Parses a surface reference (`extrafloor_t.top/bottom`). */
export function parseSurfaceRef(text: string): SurfaceRef | undefined {
  const m = /^([FC]):(\d+)$/.exec(text);
  return m === null ? undefined : { text, plane: m[1] === 'F' ? 'floor' : 'ceiling', sector: Number(m[2]) };
}

/** Parses a region-properties reference (`p`, `override_p`): a 0-based sector number. */
export function parseSectorNumber(text: string): number | undefined {
  const n = int(text);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** Parses a line or sector special (`:<ddf number>`). */
export function parseSpecialRef(text: string): SpecialRef | undefined {
  const m = /^:(-?\d+)$/.exec(text);
  return m === null ? undefined : { text, number: Number(m[1]) };
}

/** Parses an image reference. */
export function parseImageRef(text: string): ImageRef | undefined {
  const m = /^([A-Za-z]):(.*)$/.exec(text);
  return m === null ? undefined : { text, namespace: m[1]!, name: m[2]! };
}

/** Parses a mobj or psprite state reference. */
export function parseStateRef(text: string): StateRef | undefined {
  const m = /^([^:]*):([^:]*):(\d+)$/.exec(text);
  return m === null ? undefined : { text, owner: m[1]!, label: m[2]!, offset: Number(m[3]) };
}

/** Parses a light type. */
export function parseLightTypeRef(text: string): LightTypeRef | undefined {
  const m = /^([LS]):(-?\d+)$/.exec(text);
  return m === null ? undefined : { text, source: m[1] === 'L' ? 'line' : 'sector', number: Number(m[2]) };
}

/** Parses a plane mover type. */
export function parsePlaneMoverRef(text: string): PlaneMoverRef | undefined {
  const m = /^([DLS]):([FC]):(-?\d+)$/.exec(text);
  if (m === null) return undefined;
  const source = m[1] === 'D' ? 'donut' : m[1] === 'L' ? 'line' : 'sector';
  return { text, source, plane: m[2] === 'F' ? 'floor' : 'ceiling', number: Number(m[3]) };
}

/** Parses an RTS script reference. */
export function parseScriptRef(text: string): ScriptRef | undefined {
  const m = /^B:([^:]*):(\d+):([0-9A-Fa-f]+)$/.exec(text);
  return m === null ? undefined : { text, map: m[1]!, index: Number(m[2]), crc: Number.parseInt(m[3]!, 16) >>> 0 };
}

/** A string field's reference, parsed by what the field is (edge.md §5). */
export type StringRef =
  | { readonly kind: 'surface'; readonly value: SurfaceRef }
  | { readonly kind: 'sector'; readonly value: { readonly text: string; readonly sector: number } }
  | { readonly kind: 'special'; readonly value: SpecialRef }
  | { readonly kind: 'image'; readonly value: ImageRef }
  | { readonly kind: 'state'; readonly value: StateRef }
  | { readonly kind: 'lightType'; readonly value: LightTypeRef }
  | { readonly kind: 'planeMover'; readonly value: PlaneMoverRef }
  | { readonly kind: 'script'; readonly value: ScriptRef }
  | { readonly kind: 'ddfName'; readonly value: { readonly text: string; readonly name: string } };

/** Which string fields hold which reference, by `struct.field`. */
export const STRING_REFERENCE_FIELDS: Readonly<Record<string, StringRef['kind']>> = {
  'extrafloor_t.top': 'surface',
  'extrafloor_t.bottom': 'surface',
  'extrafloor_t.p': 'sector',
  'surface_t.override_p': 'sector',
  'sector_t.p': 'sector',
  'line_t.special': 'special',
  'region_properties_t.special': 'special',
  'surface_t.image': 'image',
  'button_t.bimage': 'image',
  'plane_move_t.new_image': 'image',
  'drawtip_t.tip_graphic': 'image',
  'mobj_t.state': 'state',
  'mobj_t.next_state': 'state',
  'pspdef_t.state': 'state',
  'pspdef_t.next_state': 'state',
  'light_t.type': 'lightType',
  'plane_move_t.type': 'planeMover',
  'mobj_t.path_trigger': 'script',
  'rad_trigger_t.info': 'script',
  'mobj_t.info': 'ddfName',
  'spawnpoint_t.info': 'ddfName',
  'mobj_t.currentattack': 'ddfName',
  'playerweapon_t.info': 'ddfName',
  'region_properties_t.colourmap': 'ddfName',
};

// How the text of each kind of reference is parsed (undefined: the text is not one of that kind).
const REFERENCE_PARSERS: {
  readonly [K in StringRef['kind']]: (text: string) => Extract<StringRef, { kind: K }>['value'] | undefined;
} = {
  surface: parseSurfaceRef,
  sector: (text) => {
    const sector = parseSectorNumber(text);
    return sector === undefined ? undefined : { text, sector };
  },
  special: parseSpecialRef,
  image: parseImageRef,
  state: parseStateRef,
  lightType: parseLightTypeRef,
  planeMover: parsePlaneMoverRef,
  script: parseScriptRef,
  ddfName: (text) => ({ text, name: text }),
};

/**
 * Parses the string value of field `field` of structure `struct` into its typed reference, keeping
 * the text. `undefined` for NULL, for fields that hold plain text, and for text of another shape.
 *
 * @example
 * ```ts
 * import { parseStringRef } from '@savekit/edge';
 * parseStringRef('mobj_t', 'state', '*:SEE:2');
 * // { kind: 'state', value: { text: '*:SEE:2', owner: '*', label: 'SEE', offset: 2 } }
 * ```
 */
export function parseStringRef(struct: string, field: string, text: string | null): StringRef | undefined {
  if (text === null) return undefined;
  const kind = STRING_REFERENCE_FIELDS[`${struct}.${field}`];
  if (kind === undefined) return undefined;
  const value = REFERENCE_PARSERS[kind](text);
  return value && ({ kind, value } as StringRef);
}
