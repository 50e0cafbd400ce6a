// `edit` cleans up after runs that could not (SIGKILL, a crash): the README says a killed run's
// folder goes when its process is gone, an older savekit's once a day old, and "edits kept on purpose
// stay for a week". Only folders of that name, owned by this user, are touched: never a link, a file,
// or the folder of a run still going.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleEditFolders } from '../src/commands/edit';

const DAY = 24 * 60 * 60 * 1000;
/** A pid no process has (beyond Linux's pid_max). */
const GONE = 4_194_999;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'savekit-stale-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A folder `name` last changed at `when` (ms), with a KEPT marker when `kept`. */
function folder(name: string, when: number, kept = false): void {
  const path = join(dir, name);
  mkdirSync(path);
  writeFileSync(join(path, 'save.json'), '{}');
  if (kept) writeFileSync(join(path, 'KEPT'), '');
  utimesSync(path, new Date(when), new Date(when));
}

test('what goes and what stays, by process, age and the KEPT marker', () => {
  const now = Date.now();
  folder(`savekit-edit-${GONE}-aaaaaa`, now); // its run is gone: removed at once
  folder(`savekit-edit-${process.pid}-bbbbbb`, now - 30 * DAY); // this run's: never
  folder('savekit-edit-cccccc', now - 2 * 60 * 60 * 1000); // an older savekit's, two hours old: stays
  folder('savekit-edit-dddddd', now - 2 * DAY); // an older savekit's, two days old: removed
  folder(`savekit-edit-${GONE}-eeeeee`, now - 6 * DAY, true); // kept on purpose, six days: stays
  folder(`savekit-edit-${GONE}-ffffff`, now - 8 * DAY, true); // kept on purpose, eight days: removed
  folder('savekit-other-gggggg', now - 30 * DAY); // not edit's: untouched
  writeFileSync(join(dir, `savekit-edit-${GONE}-hhhhhh`), 'a file, not a folder');
  const target = mkdtempSync(join(tmpdir(), 'savekit-stale-target-'));
  try {
    symlinkSync(target, join(dir, `savekit-edit-${GONE}-iiiiii`)); // a link: never followed nor removed
    const removed = removeStaleEditFolders(dir, now).sort();
    expect(removed).toEqual(
      [`savekit-edit-${GONE}-aaaaaa`, `savekit-edit-${GONE}-ffffff`, 'savekit-edit-dddddd'].sort(),
    );
    expect(readdirSync(dir).sort()).toEqual(
      [
        `savekit-edit-${GONE}-eeeeee`,
        `savekit-edit-${GONE}-hhhhhh`,
        `savekit-edit-${GONE}-iiiiii`,
        `savekit-edit-${process.pid}-bbbbbb`,
        'savekit-edit-cccccc',
        'savekit-other-gggggg',
      ].sort(),
    );
    expect(readdirSync(target)).toEqual([]);
    // A week and a day later, the kept edits go too; this run's folder still stays.
    expect(removeStaleEditFolders(dir, now + 8 * DAY)).toEqual(
      expect.arrayContaining([`savekit-edit-${GONE}-eeeeee`, 'savekit-edit-cccccc']),
    );
    expect(readdirSync(dir)).toContain(`savekit-edit-${process.pid}-bbbbbb`);
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
});

test('a folder that cannot be read is no error', () => {
  expect(removeStaleEditFolders(join(dir, 'missing'))).toEqual([]);
});
