import * as E from 'fp-ts/lib/Either';
import { DecodeError, EncodeError, encode, formatPath, formatWarning, struct, u8 } from '../src/index';
import { customDef, defineCodec } from '../src/kit';

test('paths print as names, dots and indexes', () => {
  expect(formatPath(['Glob', 'Vari', 3, 'value'])).toBe('Glob.Vari[3].value');
  expect(formatPath([0, 'name'])).toBe('[0].name');
  expect(formatPath([])).toBe('(root)');
});

test('errors print as one line and are real Errors', () => {
  const error = new DecodeError(['header', 'version'], 12, 'expected 4 bytes, 2 left');
  expect(error.toString()).toBe('at header.version (offset 12): expected 4 bytes, 2 left');
  expect(error).toBeInstanceOf(Error);
  expect(error.name).toBe('DecodeError');
  expect(new EncodeError(['x'], 0, 'bad').name).toBe('EncodeError');
  expect(formatWarning({ code: 'c', path: ['a'], offset: 1, message: 'm' })).toBe('warning at a (offset 1): m');
});

test('a DecodeError thrown while writing (a check shared with decoding) is an EncodeError at the value', () => {
  const checked = defineCodec<number>({
    name: 'checked',
    def: customDef('checked'),
    json: u8.json,
    size: 1,
    read: (r) => u8.read(r),
    write(w, value) {
      if (value > 9) throw new DecodeError(['elsewhere'], 0, 'more than 9', 'out-of-range');
      u8.write(w, value);
    },
  });
  const result = encode(struct({ a: u8, b: checked }), { a: 1, b: 10 });
  if (E.isRight(result)) throw new Error('expected an EncodeError');
  expect(result.left).toBeInstanceOf(EncodeError);
  expect(result.left).toMatchObject({ path: ['b'], offset: 1, message: 'more than 9', code: 'out-of-range' });
});
