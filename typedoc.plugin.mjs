// @ts-check
/**
 * A TypeDoc plugin for options declared as zod schemas (`src/options.ts`): their members are read
 * from the schema's object literal, whose values are schemas, not defaults. TypeDoc would show each
 * as a default (`clientId: string = nonEmpty`), and each as inherited from `z.input`. An interface or
 * type literal has no defaults, so its members show none (each option's default is in its doc
 * comment), and an option is the interface's own.
 *
 * `subscription-platform-sdk/types` re-exports each schema module whole, type-only
 * (`export type * from './schemas/products.js'`), so that a schema's type is public the moment it is
 * declared. TypeScript gives such a module no values, but TypeDoc would still list each schema's
 * variable there: the module shows its types only (the schemas themselves are documented in
 * `subscription-platform-sdk/schemas`).
 *
 * The guides of `docs/` are pages of the same site (`projectDocuments`): each is named by its first
 * heading, as the README's list of guides names it, not by its file name.
 */
import { Converter, DeclarationReflection, DocumentReflection, ReflectionKind, RendererEvent } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  // Once the pages have their addresses (from the file names: `documents/sign-on.html`), each guide
  // takes its first heading for its title, in the navigation and the search.
  app.renderer.on(RendererEvent.BEGIN, (event) => {
    for (const page of event.project.getReflectionsByKind(ReflectionKind.Document)) {
      if (!(page instanceof DocumentReflection)) continue;
      const heading = page.content
        .map((part) => part.text)
        .join('')
        .match(/^# (.+)$/m)?.[1];
      if (heading) page.name = heading;
    }
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const member of context.project.getReflectionsByKind(ReflectionKind.Property)) {
      if (!(member instanceof DeclarationReflection)) continue;
      if (!member.parent?.kindOf(ReflectionKind.Interface | ReflectionKind.TypeLiteral)) continue;
      member.defaultValue = undefined;
      if (member.inheritedFrom?.name.startsWith('z.input.')) member.inheritedFrom = undefined;
    }
    const types = context.project.getChildByName('subscription-platform-sdk/types');
    if (!(types instanceof DeclarationReflection)) throw new Error('typedoc.plugin: no types module');
    for (const value of types.getChildrenByKind(ReflectionKind.Variable | ReflectionKind.Function))
      context.project.removeReflection(value);
  });
}
