/**
 * New saves from scratch: the engine layout with a release's own definitions, the `Vari` list and
 * the arrays given — what EDGE itself writes, ready to encode.
 *
 * @module
 */
import { defaultInstance, definitionsOf, type Instance, type StructDef } from '@savekit/core/schema';
import type { EdgeSave, TopChunk } from './save.js';
import { ENGINE_HEADER_PADDING } from './save.js';
import { knownStructs, tableFor } from './tables.js';
import { VARIANT_VERSIONS, variantOf, type EdgeVariant } from './variants.js';

// The variables EDGE 1.29 still writes, last, but no longer uses: a new save gives them "0 0".
const UNUSED_VARIABLES: ReadonlyArray<string> = [
  'MAPSECTOR',
  'MAPLINE',
  'MAPTHING',
  'RSCRIPT',
  'DDFATK',
  'DDFGAME',
  'DDFLEVL',
  'DDFLINE',
  'DDFSECT',
  'DDFMOBJ',
  'DDFWEAP',
];

/** The `Vari` names EDGE 1.29 writes, in its order (edge.md §4). */
export const ENGINE_VARIABLES: ReadonlyArray<string> = [
  'GAME',
  'LEVEL',
  'FLAGS',
  'GRAVITY',
  'LEVEL_TIME',
  'P_RANDOM',
  'TOTAL_KILLS',
  'TOTAL_ITEMS',
  'TOTAL_SECRETS',
  'CONSOLE_PLAYER',
  'SKILL',
  'NETGAME',
  'SKY_IMAGE',
  'DESCRIPTION',
  'DESC_DATE',
  ...UNUSED_VARIABLES,
];

/** Options of {@link createSave}. */
export interface CreateSaveOptions {
  /** The variant (default A, as the design doc describes), or give `version`. */
  readonly variant?: EdgeVariant;
  /** The version field (default: the variant's representative). Its release's tables define the structures. */
  readonly version?: number;
  /** `Vari` values by name; EDGE's names come first in its order ("0 0" for the unused checks), others after. */
  readonly variables?: Readonly<Record<string, string | null>>;
  /** Elements of the arrays to save, by array name (`mobjs`, `players`, …); arrays not given are saved empty. */
  readonly arrays?: Readonly<Record<string, Instance[]>>;
}

/**
 * A new engine-layout save: `Glob` with the variables, then a `Stru` per structure of the release,
 * an `Arry` and a `Data` per array — the order EDGE writes them in.
 *
 * @example
 * ```ts
 * import { createSave, edgeSave, newInstance } from '@savekit/edge';
 * import { encodeOrThrow } from '@savekit/core';
 * const imp = { ...newInstance('mobj_t'), info: 'IMP', health: 60 };
 * const save = createSave({ variables: { LEVEL: 'MAP01', SKILL: '3' }, arrays: { mobjs: [imp] } });
 * const bytes = encodeOrThrow(edgeSave, save);
 * ```
 */
export function createSave(options: CreateSaveOptions = {}): EdgeSave {
  const version = options.version ?? VARIANT_VERSIONS[options.variant ?? 'A'];
  const variant = variantOf(version);
  if (options.variant !== undefined && options.variant !== variant)
    throw new RangeError(`version 0x${version.toString(16)} is variant ${variant}, not ${options.variant}`);
  const table = tableFor(version);
  const given = options.variables ?? {};
  const names = [...ENGINE_VARIABLES, ...Object.keys(given).filter((n) => !ENGINE_VARIABLES.includes(n))];
  const vari = names.map((name) => {
    const value = given[name];
    return {
      id: 'Vari' as const,
      body: { name, value: value !== undefined ? value : UNUSED_VARIABLES.includes(name) ? '0 0' : '' },
    };
  });
  const defs: StructDef[] = definitionsOf(knownStructs(table));
  const arrays = options.arrays ?? {};
  for (const name of Object.keys(arrays)) {
    if (!table.arrays.some(([a]) => a === name))
      throw new RangeError(`release ${table.release} saves no array named ${name}`);
  }
  const chunks: TopChunk[] = [
    { id: 'Glob', body: { value: vari } },
    ...defs.map((def): TopChunk => ({ id: 'Stru', body: { value: def } })),
    ...table.arrays.map(
      ([name, struct]): TopChunk => ({
        id: 'Arry',
        body: { value: { name, struct, count: (arrays[name] ?? []).length } },
      }),
    ),
    ...table.arrays.map(
      ([name]): TopChunk => ({ id: 'Data', body: { value: { array: name, elements: arrays[name] ?? [] } } }),
    ),
  ];
  return { variant, layout: 'engine', version, padding: ENGINE_HEADER_PADDING.slice(), chunks };
}

/** A new instance of a release's structure, every field at its default (0, null, nested defaults). */
export function newInstance(struct: string, version: number = VARIANT_VERSIONS.A): Instance {
  const schema = knownStructs(tableFor(version));
  const found = schema.find((s) => s.name === struct);
  if (found === undefined) throw new RangeError(`release ${tableFor(version).release} has no structure ${struct}`);
  const instance = defaultInstance(found, schema);
  // A field naming a structure under another name (player_t.psprites names psprite_t, registered as
  // pspdef_t) gets instances of the real one, marked with its marker as the engine finds it.
  for (const f of found.fields) {
    const alias = f.kind === 'struct' && f.ref !== undefined ? STRUCT_ALIASES[f.ref] : undefined;
    const real = alias === undefined ? undefined : schema.find((st) => st.name === alias);
    if (real === undefined) continue;
    const one = () => ({ ...defaultInstance(real, schema), $marker: real.marker });
    instance[f.name] = f.count === 1 ? one() : Array.from({ length: f.count }, one);
  }
  return instance;
}

/** Structure names the engine writes in STRUCT fields for structures registered under another name. */
export const STRUCT_ALIASES: Readonly<Record<string, string>> = { psprite_t: 'pspdef_t' };
