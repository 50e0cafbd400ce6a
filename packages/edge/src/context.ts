/**
 * What the chunks of one EDGE save tell each other while it is decoded or encoded: the structure and
 * array definitions read so far (a `Data` chunk is read by them), the references waiting for their
 * arrays, and on write the numbering of every array's elements.
 *
 * @module
 */
import type { ArrayDef, Instance, PathSegment, StructDef } from '@savekit/core';
import type { IndexRef } from './references.js';

/** A reference read before its array was known, resolved once the whole save is read. */
export interface PendingRef {
  readonly ref: IndexRef;
  readonly path: ReadonlyArray<PathSegment>;
  readonly offset: number;
}

/** The shared state of one decode or encode. */
export interface EdgeContext {
  /** Structure definitions, in file order. */
  readonly structs: StructDef[];
  /** The names of `structs` (each may be defined once). */
  readonly structNames: Set<string>;
  /** Array definitions by name. */
  readonly arrays: Map<string, ArrayDef>;
  /** Decoded elements of each array (from its Data chunk). */
  readonly elements: Map<string, Instance[]>;
  /** INDEX references to resolve at the end of the decode. */
  readonly pending: PendingRef[];
  /** On write: each array's elements → their INDEX (1-based). */
  readonly numbering: Map<string, Map<Instance, number>>;
  /** On write: each array's element count, from its Data chunk (what its Arry chunk must say). */
  readonly counts: Map<string, number>;
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
      structNames: new Set(),
      arrays: new Map(),
      elements: new Map(),
      pending: [],
      numbering: new Map(),
      counts: new Map(),
      warned: new Set(),
      openInstances: 0,
    };
    context.set(KEY, found);
  }
  return found;
}
