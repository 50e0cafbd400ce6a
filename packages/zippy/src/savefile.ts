/**
 * The savefile API of the wiki, in TypeScript: `writeSavefile` interns objects (references + binary
 * data segments), numbers them and translates references; `readSavefile` allocates every object by
 * its recorded size, resolves references, and calls a restore callback per object, whose context
 * has `restoreFirst`, `readReferenceRestoringFirst`, `getObjectData` and `resetObjectData`. Thin
 * names over the core's object graphs (`writeGraph` / `readGraph`) and the ZSAV container.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, DecodeError, encode, EncodeError, type DecodeOptions } from '@savekit/core';
import { DecodeBudget, fixedField } from '@savekit/core/kit';
import {
  readGraph,
  segmentField,
  writeGraph,
  type GraphRestorer,
  type GraphSaver,
  type RestoreContext,
  type RestoredGraph,
  type RestoreGenerator,
} from '@savekit/core/graph';
import {
  allocateAData,
  isAData,
  restoreAData,
  writeAData,
  type AData,
  type ADataDependency,
  type ScriptClass,
} from './adata.js';
import { toGraphImage, zippyFile, zippyImageFile, type ZippyFile, type ZippyImageFile } from './container.js';
import { objectHead } from './head.js';
import { ContainerVersion, CURRENT_MAJOR, KIND } from './tags.js';
import { PrecisionError, SegmentError, type SegmentFormat, SegmentReader } from './values.js';
import { documentError } from './object-paths.js';

/** Options of {@link writeSavefile}. */
export interface WriteOptions extends SegmentFormat {
  /** End the file with `ZEND` and a CRC-32 (default true). */
  readonly crc?: boolean;
  /**
   * Lua numbers as 0 = 8-byte doubles (default) or 1 = 4-byte floats, recorded in the header and
   * used by every number written (a number a float cannot hold exactly is refused unless
   * `allowPrecisionLoss`).
   */
  readonly numberFormat?: number;
  /** `be` (magic `ZSAV`, default) or `le` (magic `VASZ`): the order of every integer and number in the file. */
  readonly byteOrder?: 'be' | 'le';
}

/**
 * A saver, or a function making one for the file's {@link SegmentFormat} (byte order, number format):
 * a saver that writes numbers or integers in its segments needs to know them.
 */
export type SaverFor<O> = GraphSaver<O> | ((format: SegmentFormat) => GraphSaver<O>);

/**
 * Saves the graph reachable from `roots` as a ZSAV file (container version 2), in `options.byteOrder`
 * and `options.numberFormat`. The image `writeGraph` fills is encoded by {@link zippyImageFile}, its
 * columns written as they are: the bytes and errors {@link zippyFile} gives for the same objects,
 * without a document object, entry and body per object (for a large graph, most of the encode).
 */
export function writeSavefile<O extends object>(
  roots: ReadonlyArray<O | null>,
  saver: SaverFor<O>,
  options: WriteOptions = {},
): E.Either<EncodeError, Uint8Array> {
  const { numberFormat } = options;
  if (numberFormat !== undefined && numberFormat !== 0 && numberFormat !== 1)
    return E.left(
      new EncodeError(['numberFormat'], 0, `number format ${numberFormat} is not 0 (f64) or 1 (f32)`, 'out-of-range'),
    );
  const image = writeGraph(roots, typeof saver === 'function' ? saver(options) : saver);
  if (E.isLeft(image)) return E.left(documentError(image.left));
  return encode(zippyImageFile, {
    byteOrder: options.byteOrder ?? 'be',
    major: CURRENT_MAJOR,
    minor: 0,
    numberFormat: numberFormat ?? 0,
    crc: options.crc ?? true,
    image: image.right,
  });
}

/**
 * A failure thrown while writing object `n`'s segment as an EncodeError at it: a number that
 * number format 1 cannot hold is `out-of-range` at its offset in segment 0.
 */
export function saveFailure(n: number, error: unknown): unknown {
  if (error instanceof PrecisionError)
    return new EncodeError(
      ['objects', n, 'segments', 0],
      error.offset,
      `object ${n}: ${error.message}`,
      'out-of-range',
    );
  return error;
}

/**
 * A restorer for {@link readSavefile}: the core's `GraphRestorer` — the shape `readGraph` takes — and,
 * when it needs the decoded file (to peek at a segment while allocating) or the load's budget (to
 * charge what restoring costs), a `forFile` that readSavefile calls once per load, restoring through
 * the restorer it returns.
 */
export interface SavefileRestorer<O> extends GraphRestorer<O> {
  /** The restorer for one load of `file`, charging `budget`. */
  forFile?(file: ZippyFile, budget: DecodeBudget): GraphRestorer<O>;
}

/**
 * The file's objects restored through `restorer` (bound to the decoded file by its `forFile`, if it
 * has one). One budget covers the whole load: the container's decode and the restore share it
 * (`options.budget`, else a fresh one from `options.maxWork` / `maxTotalOutput` and the defaults).
 */
export function readSavefile<O extends object>(
  bytes: Uint8Array,
  restorer: SavefileRestorer<O>,
  options?: DecodeOptions,
): E.Either<DecodeError, RestoredGraph<O> & { file: ZippyFile }>;
/**
 * The earlier shape: a factory given the decoded file and the budget.
 *
 * @deprecated Pass a {@link SavefileRestorer} (a `GraphRestorer`, with `forFile` if it needs the file).
 */
export function readSavefile<O extends object>(
  bytes: Uint8Array,
  restorer: (file: ZippyFile, budget: DecodeBudget) => GraphRestorer<O>,
  options?: DecodeOptions,
): E.Either<DecodeError, RestoredGraph<O> & { file: ZippyFile }>;
export function readSavefile<O extends object>(
  bytes: Uint8Array,
  restorer: SavefileRestorer<O> | ((file: ZippyFile, budget: DecodeBudget) => GraphRestorer<O>),
  options?: DecodeOptions,
): E.Either<DecodeError, RestoredGraph<O> & { file: ZippyFile }> {
  const budget = DecodeBudget.of(options, bytes.length);
  const file = decode(zippyFile, bytes, { ...options, budget });
  if (E.isLeft(file)) return file;
  const bound =
    typeof restorer === 'function'
      ? restorer(file.right.value, budget)
      : (restorer.forFile?.(file.right.value, budget) ?? restorer);
  const graph = readGraph(toGraphImage(file.right.value), bound);
  return E.isLeft(graph) ? E.left(documentError(graph.left)) : E.right({ ...graph.right, file: file.right.value });
}

/** A restorer for {@link readSavefileImage}: a `GraphRestorer`, with `forImage` if it needs the file or the budget. */
export interface SavefileImageRestorer<O> extends GraphRestorer<O> {
  /** The restorer for one load of `file` (its header and its objects as an image), charging `budget`. */
  forImage?(file: ZippyImageFile, budget: DecodeBudget): GraphRestorer<O>;
}

/**
 * {@link readSavefile} without the document: the file is decoded by {@link zippyImageFile} (the same
 * checks and errors) straight into the core's graph image, which `readGraph` restores — no object per
 * object but the restorer's own. What it returns names the file as decoded so, its objects an image.
 */
export function readSavefileImage<O extends object>(
  bytes: Uint8Array,
  restorer: SavefileImageRestorer<O>,
  options?: DecodeOptions,
): E.Either<DecodeError, RestoredGraph<O> & { file: ZippyImageFile }> {
  const budget = DecodeBudget.of(options, bytes.length);
  const file = decode(zippyImageFile, bytes, { ...options, budget });
  if (E.isLeft(file)) return file;
  const bound = restorer.forImage?.(file.right.value, budget) ?? restorer;
  const graph = readGraph(file.right.value.image, bound);
  return E.isLeft(graph) ? E.left(documentError(graph.left)) : E.right({ ...graph.right, file: file.right.value });
}

/**
 * Charges `units` of work to the budget for object `n` (restoring its references, entries, items):
 * a BudgetError at `objects[n]` past it.
 */
function restoreWork(budget: DecodeBudget | undefined, units: number, n: number): void {
  budget?.spendWork(units, ['objects', n], 0);
}

/** The DataType field of {@link objectHead}, per byte order: read in place, for allocating. */
const DATA_TYPE = { be: fixedField(objectHead('be'), 'dataType'), le: fixedField(objectHead('le'), 'dataType') };

/**
 * The DataType in segment 0 of object `n` (the field after its tag), for allocating a C structure;
 * for a `LUA\0` object of container v2, its Lua type ({@link LuaType}) in the same place.
 */
export function dataTypeAt(file: ZippyFile | ZippyImageFile, n: number): number {
  const field = DATA_TYPE[file.byteOrder === 'le' ? 'le' : 'be'];
  // Read where it lies: a view or a segment reader per object costs a million-object load more than the read.
  let dataType: number | undefined;
  if ('image' in file) dataType = segmentField(file.image, n, field);
  else {
    const segment = firstSegment(file, n);
    dataType = segment === undefined ? undefined : field.read(segment);
  }
  if (dataType === undefined)
    throw new DecodeError(['objects', n], 0, `object ${n}: segment 0 has no DataType`, 'short-read');
  return dataType;
}

/**
 * Segment 0 of object `n` (1-based) of a decoded file, or of its image (a view into it); undefined
 * when there is no such object or it has no segment.
 */
export function firstSegment(file: ZippyFile | ZippyImageFile, n: number): Uint8Array | undefined {
  if (!('image' in file)) return file.objects[n - 1]?.segments[0];
  const { segStart, dataStart, data } = file.image;
  if (!Number.isInteger(n) || n < 1 || n >= segStart.length) return undefined;
  const s = segStart[n - 1]!;
  return s < segStart[n]! ? data.subarray(dataStart[s], dataStart[s + 1]) : undefined;
}

/** The kind C structures have in `file`: `DATA` (v2), `ADAT` (v1). */
export function structureKind(file: Pick<ZippyFile, 'major'>): string {
  return file.major === ContainerVersion.v1 ? KIND.adat : KIND.adata;
}

/** A DecodeError for a segment that did not parse, naming the object, its segment and the offset in it. */
export function segmentFailure(ctx: RestoreContext<unknown>, error: unknown): DecodeError {
  if (error instanceof DecodeError) return error;
  if (error instanceof SegmentError)
    return new DecodeError(
      ['objects', ctx.number, 'segments', 0],
      error.offset,
      `object ${ctx.number} (${JSON.stringify(ctx.kind)}): ${error.message}`,
      error.code,
    );
  return ctx.fail(error instanceof Error ? error.message : String(error));
}

/**
 * The reader of an object's data segment, its slots resolving to the object's references (read here,
 * all of them, first); a slot past them is a SegmentError. An object without a segment is refused.
 * `format` is the file's (pass the decoded file): its byte order and number format.
 */
export function segmentReaderOf(ctx: RestoreContext<unknown>, format: SegmentFormat = {}): SegmentReader {
  const refs = Array.from({ length: ctx.referenceCount }, () => ctx.readReference());
  const segment = ctx.getObjectData();
  if (segment === undefined) throw ctx.fail('no data segment');
  return new SegmentReader(
    segment,
    (slot, at) => {
      if (slot >= refs.length) throw new SegmentError(`slot ${slot}, but the object has ${refs.length} references`, at);
      return refs[slot] as object | null;
    },
    format,
  );
}

/**
 * The nesting limit the shipped restorers once set for `restoreFirst` from plain callbacks. They now
 * restore as generators (a superclass chain of any depth loads); the core's limit for plain
 * callbacks, `GraphRestorer.maxRestoreDepth`, is 10,000 by default.
 *
 * @deprecated The shipped restorers no longer nest; kept for code that set it on its own restorers.
 */
export const RESTORE_DEPTH = 500;

/**
 * Saves C structures that refer only to each other (no Lua values): the `adatasave.h` layer alone,
 * each a `DATA` object, written in `format` (a byte order and number format; {@link writeSavefile}
 * passes its options, so pass `adataSaver` itself there).
 */
export function adataSaver(format: SegmentFormat = {}): GraphSaver<AData> {
  // The classes of this save whose superclass chains were checked: each chain is walked once.
  const acyclic = new WeakSet<ScriptClass>();
  return {
    kindOf: () => KIND.adata,
    save(object, sink) {
      let written: ReturnType<typeof writeAData>;
      try {
        written = writeAData(object, undefined, format, acyclic);
      } catch (error) {
        throw saveFailure(sink.numberOf(object), error);
      }
      for (const r of written.references) sink.writeReference(r as AData | null);
      sink.writeData(written.segment);
    },
    sizeOf: (object) => writeAData(object, undefined, { ...format, allowPrecisionLoss: true }, acyclic).size,
  };
}

/**
 * Restores C structures saved with {@link adataSaver}: pass it to {@link readSavefile}, or bind it
 * yourself with `adataRestorer.forFile(file)` for the core's `readGraph`. Its restore callback is a
 * generator, so superclass chains of any depth restore without recursion. With the decode's
 * `budget` (as readSavefile passes it), each object, reference, List item and Vector element costs
 * a unit of work.
 */
export const adataRestorer: SavefileRestorer<AData> & {
  forFile(file: ZippyFile, budget?: DecodeBudget): GraphRestorer<AData>;
} = {
  allocate(_kind, _size, n) {
    // The DataType lies in the file's segments: only a restorer bound to a file can allocate.
    throw new Error(`object ${n}: adataRestorer reads the DataType from the file; use adataRestorer.forFile(file)`);
  },
  restore() {
    throw new Error('adataRestorer is bound to a file with forFile(file) before it restores');
  },
  forFile(file, budget) {
    const work = (units: number, n: number) => restoreWork(budget, units, n);
    return {
      allocate(kind, _size, n) {
        if (kind !== structureKind(file))
          throw new DecodeError(
            ['objects', n],
            0,
            `object ${n} is ${JSON.stringify(kind)}, not a C structure (${JSON.stringify(structureKind(file))})`,
            'unknown-tag',
          );
        return allocateAData(dataTypeAt(file, n));
      },
      restore(object, ctx) {
        work(1 + ctx.referenceCount, ctx.number);
        const reader = segmentReaderOf(ctx, file);
        try {
          const dependency = restoreAData(object, reader, {
            value: (v) => v,
            work: (units) => work(units, ctx.number),
          });
          return dependency === undefined ? undefined : (restoreAfter(dependency, ctx) as RestoreGenerator<AData>);
        } catch (error) {
          throw segmentFailure(ctx, error);
        }
      },
    };
  },
};

/**
 * The generator a restore callback returns for a structure that needs `dependency.target` first: the
 * core restores the target from its work list (no recursion, however long the chain), then the
 * structure settles. It holds only the dependency and the context while it waits.
 */
export function* restoreAfter(dependency: ADataDependency, ctx: RestoreContext<unknown>): RestoreGenerator<object> {
  const status = yield dependency.target;
  try {
    dependency.settle(status);
  } catch (error) {
    throw segmentFailure(ctx, error);
  }
}

/** Whether a value is a C structure (re-exported for savers that mix them with other objects). */
export { isAData };
