/**
 * `@savekit/cli`: the `savekit` command as a library, for embedding and tests.
 *
 * @packageDocumentation
 */
export { runCli, type CliIo } from './program.js';
export { loadRegistry, formatsOf, BUILTIN_FORMAT_PACKAGES } from './registry.js';
export { diffJson, type Difference } from './commands/diff.js';
export { verifyOne, expandSaves, type VerifyResult } from './commands/verify.js';
export { UsageError, SaveFailure } from './errors.js';
export { renderTree } from './tree.js';
export type { CliContext } from './context.js';
