/**
 * What the chunks of one EDGE save tell each other while it is decoded or encoded: the structure and
 * array definitions read so far (a `Data` chunk is read by them). INDEX references and the numbering
 * of array elements are the core's (`arrayIndexes`).
 *
 * @module
 */
import type { PathSegment } from '@savekit/core';
import type { ArrayDef, StructDef } from '@savekit/core/schema';

/** Where a structure definition is in the document: its path and offset (for what is said of it later). */
export interface DefinitionPlace {
  readonly path: ReadonlyArray<PathSegment>;
  readonly offset: number;
}

/** The shared state of one decode or encode. */
export interface EdgeContext {
  /** Structure definitions, in file order. */
  readonly structs: StructDef[];
  /** Where each of `structs` was read or written (same order). */
  readonly structPlaces: DefinitionPlace[];
  /** The names of `structs` (each may be defined once). */
  readonly structNames: Set<string>;
  /** Array definitions by name. */
  readonly arrays: Map<string, ArrayDef>;
  /** Whether reconciliation warnings were reported already. */
  warned: Set<string>;
  /** Structure-instance chunks open right now (inside one top-level chunk). */
  openInstances: number;
}

/** The engine's `MAX_CHUNK_DEPTH`: at most 16 chunks open at once, the top-level chunk included. */
export const MAX_CHUNK_DEPTH = 16;

const KEY = Symbol('savekit.edge.context');

/** The EDGE context of a decode or encode (created on first use). */
export function edgeContext(context: Map<unknown, unknown>): EdgeContext {
  let found = context.get(KEY) as EdgeContext | undefined;
  if (found === undefined) {
    found = {
      structs: [],
      structPlaces: [],
      structNames: new Set(),
      arrays: new Map(),
      warned: new Set(),
      openInstances: 0,
    };
    context.set(KEY, found);
  }
  return found;
}
