#!/usr/bin/env node
// The `savekit` command as npm links it. This file is committed, not built, so that `npm ci` on a
// fresh clone links node_modules/.bin/savekit before `npm run build` has made dist/ (npm skips a
// bin whose file does not exist yet, and `npx savekit` would then ask the registry instead).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('savekit: the command is not built yet: run npm run build first\n');
  process.exit(1);
}
await import(entry.href);
