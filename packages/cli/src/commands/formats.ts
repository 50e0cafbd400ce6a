/** `savekit formats`: the registered formats. */
import type { CliContext } from '../context.js';
import { showJson, showName } from '../show.js';

/** Lists the registered formats; returns the exit code. */
export function formatsCommand(ctx: CliContext, options: { json?: boolean }): number {
  const formats = ctx.registry.list();
  if (options.json) {
    ctx.out(
      showJson(
        JSON.stringify(
          formats.map((f) => ({
            id: f.id,
            title: f.title,
            extensions: f.extensions,
            input: f.input,
            reads: true,
            writes: true,
          })),
          null,
          2,
        ),
      ),
    );
    return 0;
  }
  if (formats.length === 0) {
    ctx.out('no formats registered (install a format package, or load one with --plugin)');
    return 0;
  }
  const c = ctx.colors;
  for (const f of formats) {
    const kind = f.input === 'tree' ? 'folders' : f.input === 'both' ? 'files and folders' : 'files';
    ctx.out(`${c.bold(showName(f.id).padEnd(12))} ${showName(f.title)}`);
    ctx.out(
      `${' '.repeat(13)}${c.dim(`reads and writes ${kind}${f.extensions.length > 0 ? ` (${f.extensions.join(', ')})` : ''}`)}`,
    );
  }
  return 0;
}
