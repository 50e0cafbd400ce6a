// Jest's test order, for a run without jest's own timing cache (a fresh clone, CI): jest then sorts by
// file size, and the slowest files — crash tests that spawn 200 writers, in small files — start last
// and leave one worker running alone at the end. Here a file jest has no time for takes its time from
// test/durations.json (seconds per file in the heavy profile, written by
// `node scripts/run-jest.mjs --profile=heavy --record-durations`), so the slowest still start first.
// Everything else is jest's default: failed files first, then jest's cached times.
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const root = join(__dirname, '..');

/** Seconds per test file (relative path), or none when the file is missing or unreadable. */
function recorded() {
  try {
    return JSON.parse(readFileSync(join(root, 'test', 'durations.json'), 'utf8')).files ?? {};
  } catch {
    return {};
  }
}

class DurationHintSequencer extends Sequencer {
  hints = recorded();

  /** Jest's cached time of the file, else the recorded one (in jest's unit, milliseconds). */
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const hint = this.hints[relative(root, test.path).split('\\').join('/')];
    return hint === undefined ? undefined : hint * 1000;
  }
}

module.exports = DurationHintSequencer;
