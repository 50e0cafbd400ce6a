// Template copies (copy-sites.ts): one copier per key sequence, and copies that are plain, separate objects.
import { templateCopier } from '../src/copy-sites';

test('the same keys get the same copier; a copy is a plain object with the template keys, not the template', () => {
  const keys = ['x', 'y', 'z'];
  const copy = templateCopier(keys);
  expect(templateCopier([...keys])).toBe(copy);
  const template = { x: null, y: null, z: null };
  const one = copy(template);
  expect(one).not.toBe(template);
  expect(one).toEqual(template);
  expect(Object.getPrototypeOf(one)).toBe(Object.prototype);
  (one as Record<string, unknown>).x = 1;
  expect(template.x).toBeNull();
  // Past the sites there are, every new key sequence still gets a copier that copies.
  for (let i = 0; i < 40; i++) {
    const many = templateCopier([`k${i}`]);
    expect(many({ [`k${i}`]: i })).toEqual({ [`k${i}`]: i });
    expect(templateCopier([`k${i}`])).toBe(many);
  }
});
