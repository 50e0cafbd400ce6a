/**
 * The `savekit` command line: options, commands, exit codes (0 success, 1 a save is invalid or
 * differs, 2 usage error) and one-line errors.
 *
 * @module
 */
import { createRequire } from 'node:module';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import pc from 'picocolors';
import type { FormatRegistry } from '@savekit/core';
import { buildCommand } from './commands/build.js';
import { diffCommand } from './commands/diff.js';
import { dumpCommand } from './commands/dump.js';
import { editCommand } from './commands/edit.js';
import { formatsCommand } from './commands/formats.js';
import { hexdumpCommand } from './commands/hexdump.js';
import { inspectCommand } from './commands/inspect.js';
import { verifyCommand } from './commands/verify.js';
import type { CliContext } from './context.js';
import { SaveFailure, UsageError } from './errors.js';
import { loadRegistry } from './registry.js';

/** Where the CLI prints; tests and embedders can capture it. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

function depth(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/**
 * Runs `savekit` with `args` (without `node` and the script) and returns the exit code. Nothing is
 * thrown: every failure becomes a line on standard error.
 */
export async function runCli(args: ReadonlyArray<string>, io: CliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let registry: FormatRegistry | undefined;
  let code = 0;
  let debug = args.includes('--debug');
  const program = new Command('savekit');
  const context = (): CliContext => {
    const opts = program.opts<{ color: boolean }>();
    const colors = pc.createColors(opts.color !== false && !process.env.NO_COLOR && io.stdout.isTTY === true);
    return {
      registry: registry as FormatRegistry,
      colors,
      out: (line) => void io.stdout.write(`${line}\n`),
      err: (line) => void io.stderr.write(`${line}\n`),
      interactive: io.stderr.isTTY === true,
    };
  };
  program
    .description('Inspect, dump, build, verify, diff, hexdump and edit savegames of every registered format.')
    .version(version)
    .option('--plugin <module>', 'load a format plugin (a path or a package; repeatable)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--no-color', 'no colours, even on a terminal')
    .option('--debug', 'print stack traces of internal errors')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) })
    .showSuggestionAfterError(true)
    .hook('preAction', async () => {
      debug = program.opts<{ debug?: boolean }>().debug === true;
      registry = await loadRegistry(program.opts<{ plugin: string[] }>().plugin);
    });

  program.command('formats').description('list the registered formats').option('--json', 'machine-readable output')
    .action((options) => void (code = formatsCommand(context(), options)));
  program.command('inspect').argument('<save>', 'a save file, or a folder for multi-file saves')
    .description('sniff, decode, and print a summary and the document tree')
    .option('--format <id>', 'the format, instead of sniffing').option('--depth <n>', 'tree depth', depth, 4).option('--json', 'machine-readable output')
    .action((save, options) => void (code = inspectCommand(context(), save, options)));
  program.command('dump').argument('<save>').description('the lossless JSON document (to standard output by default)')
    .option('-o, --output <file>', 'write the JSON here').option('--format <id>', 'the format, instead of sniffing')
    .action((save, options) => void (code = dumpCommand(context(), save, options)));
  program.command('build').argument('<json>').description('the save back from its JSON document')
    .option('-o, --output <save>', 'where to write the save')
    .action((json, options) => void (code = buildCommand(context(), json, options)));
  program.command('verify').argument('<saves...>', 'files, folders or glob patterns').description('decode, check checksums, re-encode and compare bytes')
    .option('--format <id>', 'the format, instead of sniffing').option('--json', 'machine-readable output')
    .action((saves, options) => void (code = verifyCommand(context(), saves, options)));
  program.command('diff').argument('<a>').argument('<b>').description('field-level differences between two saves of one format')
    .option('--format <id>', 'the format, instead of sniffing').option('--json', 'machine-readable output')
    .action((a, b, options) => void (code = diffCommand(context(), a, b, options)));
  program.command('hexdump').argument('<save>').description('hex with the field path of each byte range beside it')
    .option('--range <start:end>', 'only these offsets (decimal or 0x hex)').option('--format <id>', 'the format, instead of sniffing')
    .action((save, options) => void (code = hexdumpCommand(context(), save, options)));
  program.command('edit').argument('<save>').description('edit the JSON document in $EDITOR, then write the save back (the old one kept as .bak)')
    .option('--format <id>', 'the format, instead of sniffing')
    .action((save, options) => void (code = editCommand(context(), save, options)));

  try {
    if (args.length === 0) {
      program.outputHelp({ error: true });
      return 2;
    }
    await program.parseAsync([...args], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version succeed; help shown because no command was given is a usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return 2; // commander has already printed the problem
    }
    if (error instanceof UsageError || error instanceof SaveFailure) {
      io.stderr.write(`savekit: ${error.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`savekit: internal error: ${message}${debug ? '' : ' (run with --debug for details)'}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
