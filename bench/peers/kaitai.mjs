// Kaitai Struct as a benchmark peer: a .ksy (given as the object its YAML parses to) compiled by the
// official compiler from npm into JavaScript, written under bench/.generated/ (not committed) and
// loaded with the official runtime. The compiler is GPL-3.0; it is a devDependency of the benchmarks
// only and nothing of it ships.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const generated = new URL('../.generated/', import.meta.url);

/** Compiles `ksy` and returns the generated parser class (`new Parser(new KaitaiStream(bytes))`). */
export async function compileKsy(ksy) {
  const KaitaiStructCompiler = require('kaitai-struct-compiler');
  const compiler = typeof KaitaiStructCompiler === 'function' ? new KaitaiStructCompiler() : KaitaiStructCompiler;
  const files = await compiler.compile('javascript', ksy, null, false);
  mkdirSync(generated, { recursive: true });
  let main;
  for (const [name, source] of Object.entries(files)) {
    // The generated modules are UMD; as .cjs files Node loads them as CommonJS.
    const path = fileURLToPath(new URL(name.replace(/\.js$/, '.cjs'), generated));
    writeFileSync(path, source.replace(/require\('\.\/([A-Za-z0-9_]+)'\)/g, "require('./$1.cjs')"));
    if (main === undefined) main = path;
  }
  const exports = require(main);
  return Object.values(exports)[0];
}

/** The Kaitai runtime's stream class. */
export const KaitaiStream = require('kaitai-struct/KaitaiStream');
