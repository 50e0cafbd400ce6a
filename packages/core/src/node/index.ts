/**
 * `@savekit/core/node`: helpers that need Node's file system, kept out of the browser-safe core.
 *
 * @packageDocumentation
 */
export { writeFileAtomic, type AtomicWriteOptions } from './atomic.js';
