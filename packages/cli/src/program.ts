/**
 * The `savekit` command line: options, commands, exit codes (0 success, 1 a save is invalid or
 * differs, 2 usage error) and one-line errors.
 *
 * @module
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import pc from 'picocolors';
import type { AnySaveFormat, FormatRegistry } from '@savekit/core';
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
import { DEFAULT_MAX_SAVE_BYTES, fileSystemMessage, formatSize, LARGEST_MAX_SAVE_BYTES, parseSize } from './io.js';
import { loadRegistry } from './registry.js';
import { safeLine, showName } from './show.js';
import { version } from './version.js';

/** Where the CLI prints; tests and embedders can capture it. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** How an embedder runs the CLI. */
export interface RunOptions {
  /**
   * The formats to use instead of the installed format packages (`--plugin` and
   * `SAVEKIT_PLUGINS` still add to them).
   */
  readonly formats?: ReadonlyArray<AnySaveFormat>;
}

function depth(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

function size(text: string): number {
  const bytes = parseSize(text);
  if (bytes === undefined)
    throw new InvalidArgumentError(
      `expected a size in bytes, or with a unit (64k, 512M, 2G), from 1 byte to ${formatSize(LARGEST_MAX_SAVE_BYTES)}`,
    );
  return bytes;
}

/** The size limit: `--max-size`, else `SAVEKIT_MAX_SIZE`, else the default. */
function maxSaveBytes(option: number | undefined): number {
  if (option !== undefined) return option;
  const fromEnv = process.env.SAVEKIT_MAX_SIZE;
  if (fromEnv === undefined || fromEnv.trim() === '') return DEFAULT_MAX_SAVE_BYTES;
  const bytes = parseSize(fromEnv);
  if (bytes === undefined)
    throw new UsageError(
      `SAVEKIT_MAX_SIZE=${showName(JSON.stringify(fromEnv))} is not a size (bytes, or with a unit: 64k, 512M, 2G)`,
    );
  return bytes;
}

/** A help section of example command lines, each with what it does. */
function examples(lines: ReadonlyArray<readonly [command: string, what: string]>): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  return `\nExamples:\n${lines.map(([command, what]) => `  $ ${command.padEnd(width)}  # ${what}`).join('\n')}\n`;
}

/** What one command of the CLI is: its arguments, options, help and what it runs. */
interface CommandSpec {
  readonly name: string;
  readonly arguments: ReadonlyArray<readonly [name: string, description?: string]>;
  readonly description: string;
  readonly options: ReadonlyArray<readonly [flags: string, description: string, parse?: (text: string) => unknown]>;
  readonly examples: ReadonlyArray<readonly [command: string, what: string]>;
  /** Help text after the examples. */
  readonly note?: string;
  /** Runs the command with its arguments and options, in commander's order; returns the exit code. */
  readonly run: (context: CliContext, ...args: never[]) => number | Promise<number>;
}

/** The commands, in the order help lists them. */
const COMMANDS: ReadonlyArray<CommandSpec> = [
  {
    name: 'formats',
    arguments: [],
    description: 'list the registered formats',
    options: [['--json', 'machine-readable output']],
    examples: [
      ['savekit formats', 'ids, titles and what each reads'],
      ['savekit --plugin ./my-format.js formats --json', 'with a plugin, as JSON'],
    ],
    run: formatsCommand,
  },
  {
    name: 'inspect',
    arguments: [['<save>', 'a save file, or a folder for multi-file saves']],
    description:
      'sniff, decode, and print a summary and the document tree (long arrays, objects and strings cut unless --full)',
    options: [
      ['--format <id>', 'the format, instead of sniffing'],
      ['--depth <n>', 'tree depth (default: 4, or all with --full)', depth],
      ['--full', 'show every element, field and byte'],
      ['--json', 'machine-readable output (always the whole document)'],
      ['--ignore-checksums', 'read a save whose checksums do not match: each mismatch a warning, not an error'],
    ],
    examples: [
      ['savekit inspect game.sav', 'a screenful: "… N more" where arrays and objects go on'],
      ['savekit inspect --depth 1 game.sav', 'the top level only'],
      ['savekit inspect --full game.sav', 'everything'],
      ['savekit inspect --json game.sav | jq .summary', 'for scripts'],
      ['savekit inspect --ignore-checksums broken.sav', 'a corrupted save: its mismatches as warnings'],
    ],
    run: inspectCommand,
  },
  {
    name: 'dump',
    arguments: [['<save>']],
    description: 'the lossless JSON document (to standard output by default)',
    options: [
      ['-o, --output <file>', 'write the JSON here'],
      ['--format <id>', 'the format, instead of sniffing'],
      ['--ignore-checksums', 'dump a save whose checksums do not match (the mismatches printed as warnings)'],
    ],
    examples: [
      ['savekit dump game.sav', 'to standard output'],
      ['savekit dump game.sav -o game.json', 'to a file (written atomically)'],
    ],
    run: dumpCommand,
  },
  {
    name: 'build',
    arguments: [['<json>', 'a JSON document written by dump']],
    description: 'the save back from its JSON document',
    options: [['-o, --output <save>', 'where to write the save (default: standard output, when it is not a terminal)']],
    examples: [
      ['savekit build game.json -o game.sav', 'to a file (written atomically)'],
      ['savekit build game.json > game.sav', 'to standard output'],
      ['savekit build game.json -o world/', 'a multi-file save, to a folder'],
    ],
    note: '\nWithout -o the save goes to standard output; on a terminal it is refused (a save is binary).\nA folder save always needs -o. Every checksum is computed afresh: a document dumped with\n--ignore-checksums builds a repaired save.\n',
    run: buildCommand,
  },
  {
    name: 'verify',
    arguments: [['<saves...>', 'files, folders or glob patterns']],
    description: 'decode, check checksums, re-encode and compare bytes',
    options: [
      ['--format <id>', 'the format, instead of sniffing'],
      ['--json', 'machine-readable output'],
      ['--ignore-checksums', 'list every checksum mismatch instead of stopping at the first (still exit 1)'],
    ],
    examples: [
      ['savekit verify game.sav', 'one save'],
      ['savekit verify saves/', 'every save in a folder'],
      ["savekit verify 'saves/**/*.sav'", 'a glob (quoted: savekit expands it)'],
      ['savekit verify --json saves/', 'for scripts'],
    ],
    note: '\nIn a folder or glob, files no format recognises (a README, notes) are skipped and counted, not\nfailures; a file named on its own must be a save. Exit 1 when a save is invalid or differs.\n',
    run: verifyCommand,
  },
  {
    name: 'diff',
    arguments: [['<a>'], ['<b>']],
    description: 'field-level differences between two saves of one format',
    options: [
      ['--format <id>', 'the format, instead of sniffing'],
      ['--json', 'machine-readable output'],
      ['--ignore-checksums', 'compare saves whose checksums do not match (the mismatches printed as warnings)'],
    ],
    examples: [
      ['savekit diff before.sav after.sav', 'one line per changed, added or removed field'],
      ['savekit diff --json before.sav after.sav', 'for scripts'],
    ],
    note: '\nExit 0 when they are the same, 1 when they differ, 2 when they cannot be compared (different formats).\n',
    run: diffCommand,
  },
  {
    name: 'hexdump',
    arguments: [['<save>']],
    description: 'hex with the field path of each byte range beside it',
    options: [
      ['--range <start:end>', 'only these offsets (decimal or 0x hex)'],
      ['--format <id>', 'the format, instead of sniffing'],
      [
        '--ignore-checksums',
        'label the fields of a save whose checksums do not match (the mismatches printed as warnings)',
      ],
    ],
    examples: [
      ['savekit hexdump game.sav | less', 'every byte'],
      ['savekit hexdump --range 0x100:0x200 game.sav', 'bytes 256 to 511'],
    ],
    run: hexdumpCommand,
  },
  {
    name: 'edit',
    arguments: [['<save>']],
    description: 'edit the JSON document in $EDITOR, then write the save back (the old one kept as .bak)',
    options: [
      ['--format <id>', 'the format, instead of sniffing'],
      ['--ignore-checksums', 'edit a save whose checksums do not match; it is written back with them recomputed'],
    ],
    examples: [
      ['savekit edit game.sav', 'in $VISUAL or $EDITOR (else vi)'],
      ['savekit edit --ignore-checksums broken.sav', '"Save file corrupted. Continue?": yes, and repair it'],
      ['EDITOR="code --wait" savekit edit game.sav', 'an editor that needs a flag'],
    ],
    note: '\nA document that does not build reopens in the editor with the problem at the top (# lines are\nignored); save it unchanged or empty to give up, and nothing is written. With --ignore-checksums a\nsave whose checksums did not match is written back even unchanged: repaired, checksums recomputed.\n',
    run: editCommand,
  },
];

/**
 * Adds `spec` to `program`; when it is chosen, `action` gets its `run` and the arguments and
 * options commander parsed (without the command object commander passes last).
 */
function declareCommand(
  program: Command,
  spec: CommandSpec,
  action: (run: CommandSpec['run'], args: never[]) => Promise<void>,
): void {
  const command = program.command(spec.name);
  for (const [name, description] of spec.arguments) command.argument(name, description);
  command.description(spec.description);
  for (const [flags, description, parse] of spec.options) {
    if (parse === undefined) command.option(flags, description);
    else command.option(flags, description, parse);
  }
  command
    .addHelpText('after', `${examples(spec.examples)}${spec.note ?? ''}`)
    .action((...args: unknown[]) => action(spec.run, args.slice(0, -1) as never[]));
}

/**
 * Runs `savekit` with `args` (without `node` and the script) and returns the exit code. Nothing is
 * thrown: every failure becomes a line on standard error.
 */
export async function runCli(
  args: ReadonlyArray<string>,
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
  options: RunOptions = {},
): Promise<number> {
  let registry: FormatRegistry | undefined;
  let code = 0;
  let debug = args.includes('--debug');
  let limit = DEFAULT_MAX_SAVE_BYTES;
  const program = new Command('savekit');
  const context = (): CliContext => {
    const opts = program.opts<{ color: boolean }>();
    const coloured = opts.color !== false && !process.env.NO_COLOR && io.stdout.isTTY === true;
    const colors = pc.createColors(coloured);
    // Every printed line passes the last guard: no control character from a name reaches the terminal.
    return {
      registry: registry as FormatRegistry,
      colors,
      out: (line) => void io.stdout.write(`${safeLine(line, coloured)}\n`),
      write: (bytes) => void io.stdout.write(bytes),
      stdoutIsTerminal: io.stdout.isTTY === true,
      err: (line) => void io.stderr.write(`${safeLine(line, coloured)}\n`),
      interactive: io.stderr.isTTY === true,
      maxSaveBytes: limit,
    };
  };
  program
    .description('Inspect, dump, build, verify, diff, hexdump and edit savegames of every registered format.')
    .version(version)
    .option(
      '--plugin <module>',
      'load a format plugin (a path or a package; repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--no-color', 'no colours, even on a terminal')
    .option(
      '--max-size <size>',
      `the largest save or JSON document read, in bytes or with a unit: 64k, 512M, 2G (default: ${formatSize(DEFAULT_MAX_SAVE_BYTES)}, or SAVEKIT_MAX_SIZE)`,
      size,
    )
    .option('--debug', 'print stack traces of internal errors')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(safeLine(s)),
      writeErr: (s) => void io.stderr.write(safeLine(s)),
    })
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `${examples([
        ['savekit formats', 'the formats this savekit reads and writes'],
        ['savekit inspect game.sav', 'format, summary and the document tree'],
        ['savekit dump game.sav -o game.json', 'the document as JSON, to edit or keep'],
        ['savekit build game.json -o game.sav', 'and back to a save'],
        ['savekit verify saves/', 'every save in a folder: decode, re-encode, compare'],
        ['savekit diff before.sav after.sav', 'what changed, field by field'],
        ['savekit --plugin ./my-format.js inspect x.sav', 'a format of your own'],
      ])}\nA save is a file, or a folder for multi-file saves. Exit codes: 0 success; 1 a save is invalid\nor differs, or cannot be read or written; 2 a usage error. Run savekit help <command> for a command's options.\n\nsavekit reads regular files and folders only: a FIFO, a device or a socket is refused before it is\nopened, and so is a save over the size limit (--max-size). -o onto a symbolic link writes the link's\n(existing) target and keeps the link; -o onto a FIFO, a device or a socket is refused.\n`,
    )
    .hook('preAction', async () => {
      debug = program.opts<{ debug?: boolean }>().debug === true;
      limit = maxSaveBytes(program.opts<{ maxSize?: number }>().maxSize);
      registry = await loadRegistry(program.opts<{ plugin: string[] }>().plugin, options.formats);
    });

  for (const spec of COMMANDS) {
    declareCommand(program, spec, async (run, args) => {
      code = await run(context(), ...args);
    });
  }

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
      io.stderr.write(`savekit: ${safeLine(error.message)}\n`);
      return error.exitCode;
    }
    // A file-system error no command caught (every read and write should) is still one line.
    const fileSystem = fileSystemMessage(error);
    if (fileSystem !== undefined) {
      const path = (error as NodeJS.ErrnoException).path;
      io.stderr.write(`savekit: ${path !== undefined ? `${showName(path)}: ` : ''}${fileSystem}\n`);
      if (debug && error instanceof Error && error.stack) io.stderr.write(`${safeLine(error.stack)}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`savekit: internal error: ${showName(message)}${debug ? '' : ' (run with --debug for details)'}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${safeLine(error.stack)}\n`);
    return 1;
  }
}
