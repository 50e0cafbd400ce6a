/**
 * What the chunks of one EDGE save tell each other: the structure and array definitions read (or
 * written) so far, which decide how a `Data` chunk is read and written. The definition codecs
 * `provide` them under {@link EDGE_DEFINITIONS}; the `Data` codec is chosen `fromContext`. INDEX
 * references and the numbering of array elements are the core's (`arrayIndexes`).
 *
 * @module
 */
import { contextKey, type ContextKey, type PathSegment } from '@savekit/core';
import type { ArrayDef, StructDef } from '@savekit/core/schema';

/** Where a structure definition is in the document: its path and offset (for what is said of it later). */
export interface DefinitionPlace {
  readonly path: ReadonlyArray<PathSegment>;
  readonly offset: number;
}

/** The entries and first index by name that {@link Named} views share. */
class Log<T> {
  readonly entries: T[] = [];
  readonly names: string[] = [];
  readonly first = new Map<string, number>();
}

/**
 * An immutable list of named entries, as a context value must be (a failed reading is rolled back
 * by restoring the previous value). Views of one log share it while they extend it in turn, so
 * adding an entry is O(1); a view extended after another extended the same prefix copies it first.
 */
export class Named<T> {
  private constructor(
    private readonly log: Log<T>,
    /** How many entries this view holds. */
    readonly length: number,
  ) {}

  /** The empty list. */
  static empty<T>(): Named<T> {
    return new Named(new Log<T>(), 0);
  }

  /** The entries' log: views with the same log and a longer length extend this one. */
  get id(): object {
    return this.log;
  }

  /** The entry at `index` (below {@link length}). */
  at(index: number): T {
    return this.log.entries[index]!;
  }

  /** The first entry named `name`. */
  get(name: string): T | undefined {
    const index = this.log.first.get(name);
    return index !== undefined && index < this.length ? this.log.entries[index] : undefined;
  }

  /** Whether an entry is named `name`. */
  has(name: string): boolean {
    const index = this.log.first.get(name);
    return index !== undefined && index < this.length;
  }

  /** The entries' names, in order (a name given twice appears twice). */
  names(): string[] {
    return this.log.names.slice(0, this.length);
  }

  /** This list and `entry`, named `name`. */
  with(name: string, entry: T): Named<T> {
    let log = this.log;
    if (log.entries.length !== this.length) {
      // Another view extended this prefix: copy it, so that view keeps what it has.
      const copy = new Log<T>();
      for (let i = 0; i < this.length; i++) {
        copy.entries.push(log.entries[i]!);
        copy.names.push(log.names[i]!);
        if (!copy.first.has(log.names[i]!)) copy.first.set(log.names[i]!, i);
      }
      log = copy;
    }
    log.entries.push(entry);
    log.names.push(name);
    if (!log.first.has(name)) log.first.set(name, this.length);
    return new Named(log, this.length + 1);
  }
}

/** A structure definition and where it is. */
export interface PlacedStruct {
  readonly def: StructDef;
  readonly place: DefinitionPlace;
}

/** The definitions of one save read or written so far. */
export interface EdgeDefinitions {
  /** Structure definitions in file order, by name (each may be defined once). */
  readonly structs: Named<PlacedStruct>;
  /** Array definitions by name (each may be defined once). */
  readonly arrays: Named<ArrayDef>;
}

/** The definitions a save's chunks provide to the chunks after them. */
export const EDGE_DEFINITIONS: ContextKey<EdgeDefinitions> = contextKey<EdgeDefinitions>('EDGE definitions', () => ({
  structs: Named.empty(),
  arrays: Named.empty(),
}));

/** The engine's `MAX_CHUNK_DEPTH`: at most 16 chunks open at once, the top-level chunk included. */
export const MAX_CHUNK_DEPTH = 16;
