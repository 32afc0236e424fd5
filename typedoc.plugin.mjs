// @ts-check
/**
 * A TypeDoc plugin for options declared as zod schemas (`src/options.ts`): their members are read
 * from the schema's object literal, whose values are schemas, not defaults. TypeDoc would show each
 * as a default (`clientId: string = nonEmpty`), and each as inherited from `z.input`. An interface or
 * type literal has no defaults, so its members show none (each option's default is in its doc
 * comment), and an option is the interface's own.
 */
import { Converter, DeclarationReflection, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const member of context.project.getReflectionsByKind(ReflectionKind.Property)) {
      if (!(member instanceof DeclarationReflection)) continue;
      if (!member.parent?.kindOf(ReflectionKind.Interface | ReflectionKind.TypeLiteral)) continue;
      member.defaultValue = undefined;
      if (member.inheritedFrom?.name.startsWith('z.input.')) member.inheritedFrom = undefined;
    }
  });
}
