/**
 * Arrays: a fixed count, a count prefix, or elements until the window ends.
 *
 * @module
 */
import { defineAutoCompiledCodec } from './auto-compile.js';
import * as t from 'io-ts';
import { jsonArray } from './json.js';
import type { Codec } from './codec.js';
import type { Writer } from './writer.js';
import { countDef } from './def.js';
import { checkFixedCount, countName, readCount, writeCount, type CountSpec } from './size.js';

function arrayJson<A>(element: Codec<A>, fixed: number | undefined, name: string): t.Type<A[], unknown, unknown> {
  const base = jsonArray(element.json, name);
  if (fixed === undefined) return base as unknown as t.Type<A[], unknown, unknown>;
  return new t.Type<A[], unknown, unknown>(
    name,
    (u): u is A[] => base.is(u) && u.length === fixed,
    (u, c) => {
      if (Array.isArray(u) && u.length !== fixed) return t.failure(u, c, `expected ${fixed} elements, got ${u.length}`);
      return base.validate(u, c);
    },
    (a) => base.encode(a),
  );
}

/**
 * The in-place write of `count` elements of `element` (undefined unless both are fixed): throws on
 * a value that is not an array of exactly `count` elements, for the caller to redo on the tracked path.
 */
function fixedWriteOf<A>(
  element: Codec<A>,
  count: number | undefined,
): ((w: Writer, at: number, value: A[]) => void) | undefined {
  const writeElement = element.writeFixed;
  const step = element.size;
  if (count === undefined || writeElement === undefined || step === undefined) return undefined;
  return (w, at, value) => {
    if (!Array.isArray(value) || value.length !== count) throw NOT_IN_PLACE;
    for (let i = 0; i < count; i++) writeElement(w, at + i * step, value[i]!);
  };
}

/** What {@link fixedWriteOf} throws for a value it leaves to the tracked path (never seen outside). */
const NOT_IN_PLACE = new Error('not written in place');

/**
 * An array of `element`. `array(u8, 4)`: exactly four; `array(entry, u16le)`: a u16 count, then the
 * entries; `array(chunk, 'rest')`: entries until the window ends (each must take at least one byte).
 * A count that cannot fit in what is left fails before anything is allocated.
 */
export function array<A>(element: Codec<A>, count: CountSpec): Codec<A[]> {
  checkFixedCount(count, 'array');
  const fixed = typeof count === 'number' ? count : undefined;
  const name = `array(${element.name}, ${countName(count)})`;
  const elementSize = element.size;
  return defineAutoCompiledCodec<A[]>({
    name,
    def: { type: 'array', element, count: countDef(count) },
    json: arrayJson(element, fixed, name),
    size: fixed !== undefined && elementSize !== undefined ? fixed * elementSize : undefined,
    minSize: fixed !== undefined ? fixed * element.minSize : typeof count === 'object' ? count.minSize : 0,
    children: [...(typeof count === 'object' ? [{ key: 'count', codec: count }] : []), { key: '[]', codec: element }],
    read(r) {
      const at = r.pos;
      const n = readCount(r, count);
      const out: A[] = [];
      const { path, spans } = r.state;
      const depth = path.length;
      path.push(0);
      if (n === undefined) {
        for (let i = 0; r.pos < r.end; i++) {
          path[depth] = i;
          r.work(1);
          const start = r.pos;
          out.push(element.read(r));
          if (r.pos === start)
            throw r.error(
              'invalid-value',
              `element ${i} took no bytes, so an array up to the window's end would never stop`,
            );
          if (spans !== undefined) r.state.addSpan(spans, { path: path.slice(), start, end: r.pos, layer: r.layer });
        }
      } else {
        if (element.minSize > 0 ? n * element.minSize > r.end - r.pos : n > r.state.options.maxElements) {
          path.pop();
          throw r.error(
            'count-too-large',
            element.minSize > 0
              ? `${n} ${n === 1 ? 'element' : 'elements'} of at least ${element.minSize} bytes ${n === 1 ? 'does' : 'do'} not fit in the ${r.remaining} bytes left`
              : `${n} elements are more than the limit of ${r.state.options.maxElements}`,
            at,
          );
        }
        // Charged for the whole array at once, so a budget error names the array, not an element.
        path.pop();
        r.work(n);
        path.push(0);
        const readFixed = element.readFixed;
        // Elements that take bytes: the count was checked against what is left, so the list is made
        // at its size (one built by push keeps room for 16 however few it holds, and a decoded
        // document keeps its lists).
        const list: A[] = element.minSize > 0 ? new Array(n) : [];
        if (readFixed !== undefined && spans === undefined) {
          // Fixed-size elements: read at their offsets; a failure is redone element by element
          // below to name the element.
          const start = r.pos;
          const step = element.size as number;
          try {
            for (let i = 0, at = start; i < n; i++, at += step) list[i] = readFixed(r, at);
            r.pos = start + n * step;
            path.pop();
            return list;
          } catch {
            r.pos = start;
          }
        }
        for (let i = 0; i < n; i++) {
          path[depth] = i;
          const start = r.pos;
          list[i] = element.read(r);
          if (spans !== undefined) r.state.addSpan(spans, { path: path.slice(), start, end: r.pos, layer: r.layer });
        }
        path.pop();
        return list;
      }
      path.pop();
      // A short list up to the window's end, at its size (see above).
      return out;
    },
    // A fixed count of fixed-size elements is written in place, so a struct's run of fixed fields
    // (EDGE's vec3 among its floats) goes on past it; anything it refuses is redone by `write`.
    writeFixed: fixedWriteOf(element, fixed),
    write(w, value) {
      if (!Array.isArray(value)) throw w.error('wrong-type', `expected an array, got ${typeof value}`);
      writeCount(w, count, value.length, 'elements');
      const writeFixed = element.writeFixed;
      if (writeFixed !== undefined) {
        // Fixed-size elements: room for all at once, each at its offset; a failure is redone below.
        const step = element.size as number;
        const start = w.ensure(value.length * step);
        try {
          for (let i = 0, at = start; i < value.length; i++, at += step) writeFixed(w, at, value[i]!);
          w.length = start + value.length * step;
          return;
        } catch {
          w.length = start;
        }
      }
      const path = w.state.path;
      const depth = path.length;
      path.push(0);
      for (let i = 0; i < value.length; i++) {
        path[depth] = i;
        element.write(w, value[i]!); // a hole in a sparse array is refused by the element
      }
      path.pop();
    },
  });
}
