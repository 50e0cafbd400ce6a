/**
 * `@savekit/core/node`: helpers that need Node's file system, kept out of the browser-safe core.
 *
 * @packageDocumentation
 */
export { writeFileAtomic, type AtomicWriteOptions } from './atomic.js';
export { isProcessRunning } from './durable.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_TOTAL_BYTES,
  FileSystemError,
  isSavekitTemporary,
  loadTree,
  readTree,
  writeTreeAtomic,
  type FileSystemErrorCode,
  type LoadedTree,
  type LoadTreeOptions,
  type TreeReadOptions,
  type TreeWriteOptions,
} from './tree.js';
