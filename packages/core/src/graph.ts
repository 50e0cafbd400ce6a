/**
 * `@savekit/core/graph`: object graphs with shared and cyclic references, the model of Zippy's
 * savefile framework. {@link writeGraph} turns objects reachable from some roots into a
 * {@link GraphImage} — plain numbers and byte segments — and {@link readGraph} turns an image back
 * into objects; a format lays the image out with ordinary codecs, or with {@link graphImage}.
 *
 * @packageDocumentation
 */
export { graphObject, graphSize, segmentField, type GraphImage } from './graph-image.js';
export { GraphImageBuilder } from './graph-image-builder.js';
export { writeGraph, type GraphSaver, type ObjectNumbers, type ObjectSink } from './graph-writer.js';
export {
  readGraph,
  type GraphRestorer,
  type RestoreCallback,
  type RestoreContext,
  type RestoredGraph,
  type RestoreGenerator,
  type RestoreStatus,
} from './graph-reader.js';
export { graphImage } from './graph-codec.js';
export { graphDirectory, type GraphDirectoryOptions } from './graph-directory.js';
export { IdIndex } from './id-index.js';
export { Growing } from './growing.js';
