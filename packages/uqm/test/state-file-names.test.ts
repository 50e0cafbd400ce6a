// The standalone state files carry their usual names: a registry given the file's name prefers the
// format of that name among those that claim the bytes (the CLI passes the path it read).
import { FormatRegistry } from '@savekit/core';
import { createUqmSave, formats, stateFilesOf } from '@savekit/uqm';

const registry = new FormatRegistry(formats);
const files = stateFilesOf(createUqmSave()).files;

describe('state file names', () => {
  it('each state format declares the name the game gives its file', () => {
    expect(Object.fromEntries(formats.map((f) => [f.id, f.fileNames ?? []]))).toEqual({
      uqm: [],
      'uqm-starinfo': ['starinfo.dat'],
      'uqm-randgrp': ['randgrp.dat'],
      'uqm-defgrp': ['defgrp.dat'],
    });
  });

  it.each([
    ['starinfo', 'uqm-starinfo'],
    ['randgrp', 'uqm-randgrp'],
    ['defgrp', 'uqm-defgrp'],
  ] as const)('%s.dat is told by its structure, and its name agrees', (name, id) => {
    const bytes = files[name];
    expect(registry.detect(bytes)?.id).toBe(id);
    expect(registry.detect(bytes, `extracted/${name}.dat`)?.id).toBe(id);
    const [first] = registry.sniff(bytes, `${name}.dat`);
    expect(first?.format.id).toBe(id);
  });
});
