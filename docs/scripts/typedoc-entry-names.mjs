// A TypeDoc plugin: a package with subpath exports (`@savekit/core` and `@savekit/core/node`) is
// documented as one module per entry point, and TypeDoc names the main one "" (a nameless link and a
// `_` folder in the output). Each such module is named after its import specifier instead.
import { Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project;
    const modules = (project.children ?? []).filter((child) => child.kindOf(ReflectionKind.Module));
    if (modules.length === 0 || project.packageName === undefined) return;
    for (const module of modules) {
      module.name = module.name === '' ? project.packageName : `${project.packageName}/${module.name}`;
    }
  });
}
