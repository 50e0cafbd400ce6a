/**
 * The package's version, read from its package.json at run time (one place to bump).
 *
 * @module
 */
import { createRequire } from 'node:module';

/** The version of `@savekit/cli`, as `savekit --version` prints it. */
export const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
