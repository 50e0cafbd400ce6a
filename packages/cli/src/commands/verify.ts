/** `savekit verify SAVE...`: decode, check checksums, re-encode, compare bytes. */
import { isDynamicPattern, globSync } from 'tinyglobby';
import cliProgress from 'cli-progress';
import { formatPath, isSaveTree, type FieldSpan, type SaveInput } from '@savekit/core';
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave, encodeSave } from '../document.js';
import { SaveFailure, UsageError } from '../errors.js';
import { isDirectory, listFiles, readSave, saveSize } from '../io.js';

/** One save's verdict. */
export interface VerifyResult {
  readonly file: string;
  readonly status: 'ok' | 'invalid' | 'differs';
  readonly format?: string;
  readonly size?: number;
  /** For invalid saves: the error; for differing ones: where they first differ. */
  readonly message?: string;
  readonly offset?: number;
  readonly path?: string;
}

/** Saves to verify: files, folders of saves (walked), folders that are saves, and glob patterns. */
export function expandSaves(ctx: CliContext, args: ReadonlyArray<string>): string[] {
  const out: string[] = [];
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
      if (matches.length === 0) throw new UsageError(`${arg}: no file matches`);
      out.push(...matches);
    } else if (isDirectory(arg)) {
      // A folder some format reads as one save is one save; any other folder holds saves.
      if (treeFormats && ctx.registry.detect(readSave(arg)) !== undefined) out.push(arg);
      else out.push(...listFiles(arg).map((name) => `${arg.replace(/\/+$/, '')}/${name}`));
    } else {
      out.push(arg);
    }
  }
  return out;
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

/** Verifies one save. Never throws for a bad save: that is a result. */
export function verifyOne(ctx: CliContext, file: string, formatId?: string): VerifyResult {
  try {
    const input = readSave(file);
    const format = chooseFormat(ctx.registry, input, file, formatId);
    const decoded = decodeSave(format, input, file);
    const rebuilt = encodeSave(format, decoded.value, file);
    const difference = compare(input, rebuilt);
    if (difference === undefined) return { file, status: 'ok', format: format.id, size: saveSize(input) };
    let path: string | undefined;
    if (!isSaveTree(input)) {
      const traced = format.decode(input, { trace: true });
      if (traced._tag === 'Right') path = fieldAt(format.fieldMap?.(input) ?? traced.right.spans, difference.offset);
    }
    const where = difference.entry !== undefined ? `${difference.entry} at offset ${difference.offset}` : `offset ${difference.offset}`;
    return {
      file,
      status: 'differs',
      format: format.id,
      offset: difference.offset,
      ...(path !== undefined ? { path } : {}),
      message: `re-encoding differs first at ${where}${path !== undefined ? ` (${path})` : ''}`,
    };
  } catch (error) {
    if (error instanceof UsageError) return { file, status: 'invalid', message: error.message };
    if (error instanceof SaveFailure) {
      const detail = error.detail;
      return typeof detail === 'string'
        ? { file, status: 'invalid', message: detail }
        : { file, status: 'invalid', message: detail.toString(), ...('offset' in detail ? { offset: detail.offset, path: formatPath(detail.path) } : {}) };
    }
    throw error;
  }
}

export function verifyCommand(ctx: CliContext, args: ReadonlyArray<string>, options: { format?: string; json?: boolean }): number {
  const files = expandSaves(ctx, args);
  if (files.length === 0) throw new UsageError('verify needs at least one save');
  const c = ctx.colors;
  // A progress bar on a terminal, for more than a few saves; never in a pipe or with --json.
  const bar = ctx.interactive && !options.json && files.length > 8 ? new cliProgress.SingleBar({ stream: process.stderr, clearOnComplete: true, hideCursor: true, format: 'verifying {bar} {value}/{total} saves' }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(files.length, 0);
  const results: VerifyResult[] = [];
  for (const file of files) {
    const result = verifyOne(ctx, file, options.format);
    results.push(result);
    bar?.increment();
    if (!options.json && result.status !== 'ok') {
      bar?.stop();
      ctx.out(`${c.red(result.status === 'invalid' ? 'invalid' : 'differs')} ${file}: ${result.message}`);
      bar?.start(files.length, results.length);
    } else if (!options.json && bar === undefined) {
      ctx.out(`${c.green('ok')} ${file} (${result.format}, ${result.size} bytes)`);
    }
  }
  bar?.stop();
  const ok = results.filter((r) => r.status === 'ok').length;
  const invalid = results.filter((r) => r.status === 'invalid').length;
  const differs = results.length - ok - invalid;
  if (options.json) ctx.out(JSON.stringify({ results, summary: { saves: results.length, ok, invalid, differs } }, null, 2));
  else ctx.out(`${results.length} ${results.length === 1 ? 'save' : 'saves'}: ${ok} ok, ${invalid} invalid, ${differs} differ`);
  return ok === results.length ? 0 : 1;
}
