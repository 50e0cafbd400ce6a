// The README: "colours are only ever used on a terminal; `NO_COLOR` is honoured", and `--no-color`
// turns them off. Output to a pipe or a file has no escape sequence whatever the environment.
import { join } from 'node:path';
import { format as edge } from '@savekit/edge';
import { type CliIo, runCli } from '../src/program';

// version.ts reads package.json through import.meta, which the CommonJS that jest runs lacks.
jest.mock('../src/version', () => ({ version: '0.0.0-test' }));

const sample = join(__dirname, '..', '..', '..', 'examples', 'saves', 'edge-01.esg');
const ESC = '\u001b[';

/** A stream that keeps what is written; `terminal` says whether it claims to be a TTY. */
function stream(terminal: boolean) {
  const chunks: Buffer[] = [];
  const write = (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk)) > 0;
  return {
    stream: { isTTY: terminal, write } as unknown as CliIo['stdout'],
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

async function hexdump(options: { terminal: boolean; noColorEnv?: string; flag?: boolean }): Promise<string> {
  const out = stream(options.terminal);
  const err = stream(options.terminal);
  const previous = process.env.NO_COLOR;
  if (options.noColorEnv === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = options.noColorEnv;
  try {
    const args = [...(options.flag ? ['--no-color'] : []), 'hexdump', sample, '--range', '0:64'];
    const code = await runCli(args, { stdout: out.stream, stderr: err.stream }, { formats: [edge] });
    expect(code).toBe(0);
    return out.text();
  } finally {
    if (previous === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = previous;
  }
}

test('on a terminal: coloured, unless NO_COLOR is set or --no-color is given', async () => {
  const coloured = await hexdump({ terminal: true });
  expect(coloured).toContain(ESC);
  const plain = await hexdump({ terminal: false });
  expect(plain).not.toContain(ESC);
  // The same text once the colours are taken out.
  expect(coloured.replace(new RegExp(`${ESC.replace('[', '\\[')}[0-9;]*m`, 'g'), '')).toBe(plain);
  expect(await hexdump({ terminal: true, noColorEnv: '1' })).toBe(plain);
  expect(await hexdump({ terminal: true, flag: true })).toBe(plain);
});

test('to a pipe or a file: never coloured', async () => {
  expect(await hexdump({ terminal: false, noColorEnv: '' })).not.toContain(ESC);
  expect(await hexdump({ terminal: false })).not.toContain(ESC);
});
