// The bundled samples are what our encoders write today, and each decodes with its format.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { FormatRegistry } from '@savekit/core';
import { format as edge } from '@savekit/edge';
import { format as uqm } from '@savekit/uqm';
import { format as zippy } from '@savekit/zippy';
import { format as terrarum } from '@savekit/terrarum';
import { format as skirmish } from '../src/skirmish';
import { sampleFiles } from '../src/samples';

const registry = new FormatRegistry([skirmish, edge, uqm, zippy, terrarum]);

test.each(Object.entries(sampleFiles()))(
  'saves/%s is what the encoder writes, and its format reads it back to the same bytes',
  (name, bytes) => {
    const file = new Uint8Array(readFileSync(join(__dirname, '..', 'saves', name)));
    expect(file).toEqual(bytes);
    const format = registry.detect(file)!;
    expect(format.id).toBe(
      {
        'skirmish-01.sks': 'skirmish',
        'edge-01.esg': 'edge',
        'uqm-01.sav': 'uqm',
        'zippy-01.zsav': 'zippy',
        'terrarum-01.tevd': 'terrarum',
      }[name],
    );
    const decoded = format.decode(file);
    if (E.isLeft(decoded)) throw decoded.left;
    const again = format.encode(decoded.right.value);
    expect(E.isRight(again) && again.right).toEqual(file);
  },
);
