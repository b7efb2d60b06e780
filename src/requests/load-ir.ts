import { buildIr, type Ir, readDescription, type SpecInput, toOpenApi3 } from '../../compiler/index.js';

/**
 * The IR of one or more descriptions, as `mock build` sees them (same mounting, same schemas);
 * `allowRefs`: --allow-ref, where external $refs may lead besides `cwd` and each description's folder.
 */
export async function loadIr(specs: SpecInput[], cwd: string, name = 'client', allowRefs: string[] = []): Promise<Ir> {
  const inputs = await Promise.all(
    specs.map(async (spec) => {
      const raw = await readDescription(spec.source, cwd, allowRefs);
      return { source: spec.source, basePath: spec.basePath, description: await toOpenApi3(spec.source, raw.document) };
    }),
  );
  return buildIr(name, inputs, []);
}
