/**
 * References between saved objects. INDEX fields name an element of a named array (1 + its
 * position, 0 for NULL); in the document they are `{ $ref, index }` objects that also point at the
 * element itself, so removing or reordering elements renumbers them on write. Other references are
 * strings (edge.md §5), parsed here into typed values that keep their text.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, type Codec, type Instance, type PathSegment } from '@savekit/core';
import { edgeContext } from './context.js';

/** An INDEX value that is not NULL: element `index − 1` of array `$ref`. */
export interface IndexRef {
  /** The array's name (`mobjs`, `players`, `lines`, …). */
  readonly $ref: string;
  /** 1 + the element's position when the file was read (or the document built). */
  readonly index: number;
  /**
   * The element itself, once resolved (not part of the JSON form). On write, the INDEX is the
   * element's current position in its array, so edits to the array renumber every reference.
   */
  readonly target?: Instance;
}

/** A reference to `target`, element of `array` (its index is recomputed on write). */
export function refTo(array: string, target: Instance, index = 0): IndexRef {
  const ref = { $ref: array, index };
  Object.defineProperty(ref, 'target', { value: target, enumerable: false, writable: true, configurable: true });
  return ref;
}

/** Points an existing reference at its element (not enumerable, so JSON and equality ignore it). */
export function attachTarget(ref: IndexRef, target: Instance): void {
  Object.defineProperty(ref, 'target', { value: target, enumerable: false, writable: true, configurable: true });
}

const refJson = t.union([t.null, t.type({ $ref: t.string, index: t.Int })], 'IndexRef') as unknown as t.Type<
  IndexRef | null,
  unknown,
  unknown
>;

/**
 * An INDEX field (u32) into array `array` (the field's declared array; `undefined` keeps whatever the
 * file says). Reads 0 as `null`; other values become {@link IndexRef}s that the save codec resolves
 * once every array is read.
 */
export function indexRef(array: string | undefined): Codec<IndexRef | null> {
  return defineCodec<IndexRef | null>({
    name: `index(${array ?? '?'})`,
    kind: 'edgeIndex',
    json: refJson,
    size: 4,
    meta: { array },
    read(r) {
      const at = r.pos;
      r.need(4);
      const index = r.view.getUint32(at, true);
      r.pos = at + 4;
      if (index === 0) return null;
      const ref: IndexRef = { $ref: array ?? '', index };
      edgeContext(r.state.context).pending.push({ ref, path: r.state.path.slice() as PathSegment[], offset: at });
      return ref;
    },
    write(w, value) {
      let index: number;
      if (value === null || value === undefined) index = 0;
      else if (typeof value === 'object' && typeof value.index === 'number' && typeof value.$ref === 'string') {
        // The reader names the field's declared array: a reference into another would not come back.
        if (array !== undefined && value.$ref !== array)
          throw w.error(`refers to ${JSON.stringify(value.$ref)}; this field's INDEX is into ${array}`);
        index = value.index;
        const context = edgeContext(w.state.context);
        const target = value.target;
        if (target !== undefined) {
          const numbering = context.numbering.get(value.$ref);
          const position = numbering?.get(target);
          if (numbering !== undefined) {
            if (position === undefined) throw w.error(`refers to an element that is no longer in ${value.$ref}`);
            index = position;
          }
        }
        if (!Number.isInteger(index) || index < 0 || index > 0xffffffff)
          throw w.error(`INDEX ${index} does not fit 32 bits`);
        // An array the save carries must hold the element (the reader refuses an INDEX past its end;
        // 0 would read back as NULL).
        const count = context.counts.get(value.$ref);
        if (index === 0) throw w.error('INDEX 0 is NULL: write null instead');
        if (count !== undefined && index > count)
          throw w.error(`INDEX ${index} is past the end of ${value.$ref} (${count} elements)`);
      } else throw w.error('expected null or { $ref, index }');
      if (!Number.isInteger(index) || index < 0 || index > 0xffffffff)
        throw w.error(`INDEX ${index} does not fit 32 bits`);
      const at = w.ensure(4);
      w.view.setUint32(at, index, true);
      w.length = at + 4;
    },
  });
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
  switch (kind) {
    case 'surface': {
      const value = parseSurfaceRef(text);
      return value && { kind, value };
    }
    case 'sector': {
      const sector = parseSectorNumber(text);
      return sector === undefined ? undefined : { kind, value: { text, sector } };
    }
    case 'special': {
      const value = parseSpecialRef(text);
      return value && { kind, value };
    }
    case 'image': {
      const value = parseImageRef(text);
      return value && { kind, value };
    }
    case 'state': {
      const value = parseStateRef(text);
      return value && { kind, value };
    }
    case 'lightType': {
      const value = parseLightTypeRef(text);
      return value && { kind, value };
    }
    case 'planeMover': {
      const value = parsePlaneMoverRef(text);
      return value && { kind, value };
    }
    case 'script': {
      const value = parseScriptRef(text);
      return value && { kind, value };
    }
    case 'ddfName':
      return { kind, value: { text, name: text } };
    default:
      return undefined;
  }
}
