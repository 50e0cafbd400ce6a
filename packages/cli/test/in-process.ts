// The CLI run inside the test's own process (no build, no spawn), for tests that drive it with a
// format object: output is captured, and the exit code comes back with it.
import type { AnySaveFormat } from '@savekit/core';
import { type CliIo, runCli } from '../src/program';

/** What one in-process run of the CLI gave. */
export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A non-TTY output stream that keeps what is written, read back as UTF-8 by `text()`. */
export function capture(): CliIo['stdout'] & { text: () => string } {
  const chunks: Buffer[] = [];
  const write = (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk)) > 0;
  return { isTTY: false, write, text: () => Buffer.concat(chunks).toString('utf8') } as unknown as CliIo['stdout'] & {
    text: () => string;
  };
}

/**
 * A `savekit(...args)` that runs the CLI with `formats`; with `noColor`, `NO_COLOR=1` is set for the
 * run and the previous value restored after it.
 */
export function inProcessCli(
  formats: ReadonlyArray<AnySaveFormat>,
  options: { noColor: boolean } = { noColor: false },
): (...args: string[]) => Promise<InProcessRun> {
  return async (...args) => {
    const stdout = capture();
    const stderr = capture();
    const previous = process.env.NO_COLOR;
    if (options.noColor) process.env.NO_COLOR = '1';
    try {
      const code = await runCli(args, { stdout, stderr }, { formats });
      return { code, stdout: stdout.text(), stderr: stderr.text() };
    } finally {
      if (options.noColor) {
        if (previous === undefined) delete process.env.NO_COLOR;
        else process.env.NO_COLOR = previous;
      }
    }
  };
}
