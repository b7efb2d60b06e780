import { compile } from '../bundled/json-schema-to-typescript.js';
import type { Ir, JsonSchema } from '../ir/types.js';
import { mapSchema } from './schema-walk.js';
import { GENERATED_HEADER } from './header.js';
import { typeTitles } from './type-names.js';

/** types.ts: one TypeScript type per definition, via json-schema-to-typescript; none named like a global (see typeTitles). */
export async function emitTypes(ir: Ir): Promise<string> {
  const titles = typeTitles(Object.keys(ir.definitions));
  const definitions = Object.fromEntries(
    Object.entries(ir.definitions).map(([name, schema]) => [name, { ...withoutExamples(schema), title: titles.get(name) }]),
  );
  const root = { title: 'Definitions', type: 'object', definitions, additionalProperties: false } as JsonSchema;
  const code = await compile(root as never, 'Definitions', {
    bannerComment: '',
    format: false,
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: false,
    $refOptions: { resolve: { external: false } },
  });
  return `${GENERATED_HEADER}/* eslint-disable */\n${code}`;
}

/** Titles inside nested schemas would become extra type names; examples only bloat the output. */
function withoutExamples(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    const { example: _e, examples: _x, title: _t, discriminator: _d, ...rest } = node;
    return rest;
  });
}
