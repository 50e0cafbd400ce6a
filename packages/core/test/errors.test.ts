import { DecodeError, EncodeError, formatPath, formatWarning } from '../src/index';

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
