/** `savekit verify SAVE...`: decode, check checksums, re-encode, compare bytes. */
import { isDynamicPattern, globSync } from 'tinyglobby';
import cliProgress from 'cli-progress';
import { type FieldSpan, formatPath, isSaveTree, type SaveInput } from '@savekit/core';
import { grouped, plural } from '@savekit/core/kit';
import type { CliContext } from '../context.js';
import { checksumOptions, checksumWarnings, chooseFormat, decodeSave, encodeSave } from '../document.js';
import { describeError, SaveFailure, UnrecognisedSave, UsageError } from '../errors.js';
import { isDirectory, listFiles, readSave, saveSize } from '../io.js';
import { showJson, showName } from '../show.js';

/** One save's verdict (`skipped`: a file found in a folder or glob that no format recognises). */
export interface VerifyResult {
  readonly file: string;
  readonly status: 'ok' | 'invalid' | 'differs' | 'skipped';
  readonly format?: string;
  readonly size?: number;
  /** For invalid saves: the error; for differing ones: where they first differ. */
  readonly message?: string;
  readonly offset?: number;
  readonly path?: string;
  /** For invalid saves failing with a DecodeError or EncodeError: its code (`short-read`, …). */
  readonly code?: string;
  /** With `--ignore-checksums`: every checksum mismatch found (the save is invalid when there is one). */
  readonly warnings?: ReadonlyArray<{ code: string; path: string; offset: number; message: string }>;
}

/** A file to verify, and whether it was named as an argument (rather than found in a folder or glob). */
export interface SaveArgument {
  readonly file: string;
  readonly named: boolean;
}

/** Saves to verify: files, folders of saves (walked), folders that are saves, and glob patterns. */
export function expandSaves(ctx: CliContext, args: ReadonlyArray<string>): string[] {
  return expandSaveArguments(ctx, args).map((arg) => arg.file);
}

/** {@link expandSaves}, saying which files were named and which were found. */
export function expandSaveArguments(ctx: CliContext, args: ReadonlyArray<string>): SaveArgument[] {
  const out: SaveArgument[] = [];
  const treeFormats = ctx.registry.list().some((f) => f.input !== 'file');
  for (const arg of args) {
    if (isDynamicPattern(arg)) {
      // Glob from the pattern's fixed leading folders, so absolute patterns work too.
      const segments = arg.split('/');
      const fixed = segments.findIndex((segment) => isDynamicPattern(segment));
      const base = segments.slice(0, fixed).join('/') || (arg.startsWith('/') ? '/' : '.');
      const pattern = segments.slice(fixed).join('/');
      const matches = globSync(pattern, { cwd: base, onlyFiles: true, expandDirectories: false })
        .sort()
        .map((match) => (base === '.' ? match : `${base.replace(/\/$/, '')}/${match}`));
      if (matches.length === 0) throw new UsageError(`${showName(arg)}: no file matches`);
      out.push(...matches.map((file) => ({ file, named: false })));
    } else if (isDirectory(arg)) {
      // A folder some format reads as one save is one save; any other folder holds saves.
      if (treeFormats && isTreeSave(ctx, arg)) out.push({ file: arg, named: true });
      else {
        const unreadable = (name: string) =>
          ctx.err(`savekit: ${showName(arg)}: skipped ${name}: its name is not UTF-8`);
        out.push(
          ...listFiles(arg, unreadable).map((name) => ({ file: `${arg.replace(/\/+$/, '')}/${name}`, named: false })),
        );
      }
    } else {
      out.push({ file: arg, named: true });
    }
  }
  return out;
}

/**
 * Whether a folder is one save some format reads as a tree. A folder that cannot be read as one
 * (over the size limit, holding a FIFO, …) is a folder of saves, walked file by file.
 */
function isTreeSave(ctx: CliContext, folder: string): boolean {
  try {
    return ctx.registry.detect(readSave(folder, ctx.maxSaveBytes), folder) !== undefined;
  } catch (error) {
    if (error instanceof SaveFailure || error instanceof UsageError) return false;
    throw error;
  }
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** The innermost field whose bytes contain `offset`. */
function fieldAt(spans: ReadonlyArray<FieldSpan> | undefined, offset: number): string | undefined {
  let best: FieldSpan | undefined;
  for (const span of spans ?? []) {
    if (span.layer !== 0 || offset < span.start || offset >= span.end) continue;
    if (best === undefined || span.end - span.start <= best.end - best.start) best = span;
  }
  return best === undefined ? undefined : formatPath(best.path);
}

function compare(original: SaveInput, rebuilt: SaveInput): { offset: number; entry?: string } | undefined {
  if (!isSaveTree(original) || !isSaveTree(rebuilt)) {
    if (isSaveTree(original) || isSaveTree(rebuilt)) return { offset: 0 };
    const at = firstDifference(original, rebuilt);
    return at === original.length && at === rebuilt.length ? undefined : { offset: at };
  }
  const names = [...new Set([...original.keys(), ...rebuilt.keys()])].sort();
  for (const name of names) {
    const a = original.get(name);
    const b = rebuilt.get(name);
    if (a === undefined || b === undefined) return { offset: 0, entry: name };
    const at = firstDifference(a, b);
    if (at !== a.length || at !== b.length) return { offset: at, entry: name };
  }
  return undefined;
}

/**
 * Verifies one save. Never throws for a bad save: that is a result. With `skipUnrecognised`, a
 * file no format recognises is `skipped` rather than `invalid`.
 */
export function verifyOne(
  ctx: CliContext,
  file: string,
  formatId?: string,
  options: { skipUnrecognised?: boolean; ignoreChecksums?: boolean } = {},
): VerifyResult {
  try {
    const input = readSave(file, ctx.maxSaveBytes);
    const format = chooseFormat(ctx.registry, input, file, formatId);
    const decoded = decodeSave(format, input, file, checksumOptions(options));
    // Read past its checksums, a save is still invalid: every mismatch is listed, the first is the message.
    const mismatches = checksumWarnings(decoded.warnings);
    if (mismatches.length > 0) {
      const first = mismatches[0]!;
      return {
        file,
        status: 'invalid',
        format: format.id,
        code: 'checksum-mismatch',
        offset: first.offset,
        path: formatPath(first.path),
        message: `${plural(mismatches.length, 'checksum mismatch', 'checksum mismatches')}: ${first.message}`,
        warnings: mismatches.map((w) => ({
          code: w.code,
          path: formatPath(w.path),
          offset: w.offset,
          message: w.message,
        })),
      };
    }
    const rebuilt = encodeSave(format, decoded.value, file);
    const difference = compare(input, rebuilt);
    if (difference === undefined) return { file, status: 'ok', format: format.id, size: saveSize(input) };
    let path: string | undefined;
    if (!isSaveTree(input)) {
      // The format's field map when it has one, else a traced decode: one trace either way.
      let spans: ReadonlyArray<FieldSpan> | undefined;
      if (format.fieldMap !== undefined) spans = format.fieldMap(input, { layers: false });
      else {
        const traced = format.decode(input, { trace: true, traceLayers: false });
        if (traced._tag === 'Right') spans = traced.right.spans;
      }
      path = fieldAt(spans, difference.offset);
    }
    const where =
      difference.entry !== undefined
        ? `${difference.entry} at offset ${difference.offset}`
        : `offset ${difference.offset}`;
    return {
      file,
      status: 'differs',
      format: format.id,
      offset: difference.offset,
      ...(path !== undefined ? { path } : {}),
      message: `re-encoding differs first at ${where}${path !== undefined ? ` (${path})` : ''}`,
    };
  } catch (error) {
    if (error instanceof UnrecognisedSave && options.skipUnrecognised)
      return { file, status: 'skipped', message: 'no format recognises it' };
    if (error instanceof UsageError) return { file, status: 'invalid', message: error.message };
    if (error instanceof SaveFailure) {
      const detail = error.detail;
      return typeof detail === 'string'
        ? { file, status: 'invalid', message: detail }
        : {
            file,
            status: 'invalid',
            message: 'offset' in detail ? describeError(detail) : detail.toString(),
            ...('offset' in detail ? { offset: detail.offset, path: formatPath(detail.path), code: detail.code } : {}),
          };
    }
    throw error;
  }
}

/** Verifies saves and prints a line for each and a summary; returns the exit code. */
export function verifyCommand(
  ctx: CliContext,
  args: ReadonlyArray<string>,
  options: { format?: string; json?: boolean; ignoreChecksums?: boolean },
): number {
  const files = expandSaveArguments(ctx, args);
  if (files.length === 0) throw new UsageError('verify needs at least one save');
  const c = ctx.colors;
  // A progress bar on a terminal, for more than a few saves; never in a pipe or with --json.
  const bar =
    ctx.interactive && !options.json && files.length > 8
      ? new cliProgress.SingleBar(
          {
            stream: process.stderr,
            clearOnComplete: true,
            hideCursor: true,
            format: 'verifying {bar} {value}/{total} files',
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  bar?.start(files.length, 0);
  const results: VerifyResult[] = [];
  const skipped: VerifyResult[] = [];
  for (const { file, named } of files) {
    // A README beside the saves is not a broken save; a file named on its own must be a save.
    const result = verifyOne(ctx, file, options.format, {
      skipUnrecognised: !named,
      ...(options.ignoreChecksums ? { ignoreChecksums: true } : {}),
    });
    (result.status === 'skipped' ? skipped : results).push(result);
    bar?.increment();
    if (options.json || (bar !== undefined && (result.status === 'ok' || result.status === 'skipped'))) continue;
    bar?.stop();
    const name = showName(file);
    if (result.status === 'ok')
      ctx.out(`${c.green('ok')} ${name} (${result.format}, ${plural(result.size ?? 0, 'byte')})`);
    else if (result.status === 'skipped') ctx.out(`${c.dim('skipped')} ${name}: ${showName(result.message ?? '')}`);
    else ctx.out(`${c.red(result.status)} ${name}: ${showName(result.message ?? '')}`);
    for (const warning of result.warnings ?? [])
      ctx.out(
        c.yellow(
          `  [${warning.code}] at ${showName(warning.path)} (offset ${warning.offset}): ${showName(warning.message)}`,
        ),
      );
    bar?.start(files.length, results.length + skipped.length);
  }
  bar?.stop();
  if (results.length === 0)
    throw new UsageError(`no save among ${plural(skipped.length, 'file')}: no format recognises any of them`);
  const count = (status: VerifyResult['status']) => results.filter((r) => r.status === status).length;
  // The same words as each line's status and the --json keys.
  const summary = {
    saves: results.length,
    ok: count('ok'),
    invalid: count('invalid'),
    differs: count('differs'),
    skipped: skipped.length,
  };
  if (options.json) {
    ctx.out(showJson(JSON.stringify({ results, skipped: skipped.map((r) => r.file), summary }, null, 2)));
  } else {
    ctx.out(
      `${plural(summary.saves, 'save')}: ${grouped(summary.ok)} ok, ${grouped(summary.invalid)} invalid, ${grouped(summary.differs)} differs`,
    );
    if (skipped.length > 0) ctx.out(`skipped: ${plural(skipped.length, 'file')} no format recognises`);
  }
  return summary.ok === results.length ? 0 : 1;
}
