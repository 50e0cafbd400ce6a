/**
 * `@savekit/cli`: the `savekit` command as a library, for embedding and tests.
 *
 * @packageDocumentation
 */
export { runCli, type CliIo, type RunOptions } from './program.js';
export { loadRegistry, formatsOf, BUILTIN_FORMAT_PACKAGES } from './registry.js';
export {
  verifyOne,
  expandSaves,
  expandSaveArguments,
  type SaveArgument,
  type VerifyResult,
} from './commands/verify.js';
export { UsageError, SaveFailure, UnrecognisedSave } from './errors.js';
export { renderTree, SUMMARY_LIMITS, FULL_LIMITS, type TreeLimits } from './tree.js';
export type { CliContext } from './context.js';
