import { pathAnnotation } from '@savekit/core';
import { spanLabel } from '../src/commands/hexdump';

test('hexdump labels read as document paths: pointer offsets and layers dropped, framing kept', () => {
  // What a WAD directory entry's lump read to before: root.directory.@44[3].filepos.@28@28
  const lump = ['root', 'directory', 'target', pathAnnotation('@44'), 3, 'filepos', 'target', pathAnnotation('@28')];
  expect(spanLabel(lump)).toBe('root.directory.target[3].filepos.target');
  expect(spanLabel(['chunks', 2, 'body', pathAnnotation('lzo1x'), pathAnnotation('xor'), 'elements', 0])).toBe(
    'chunks[2].body.elements[0]',
  );
  expect(spanLabel(['chunks', 0, pathAnnotation('length')])).toBe('chunks[0]<length>');
  expect(spanLabel([pathAnnotation('Adler-32')])).toBe('<Adler-32>');
  expect(spanLabel([])).toBe('(root)');
});
