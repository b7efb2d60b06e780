import { createConfig, lintFromString } from '../bundled/redocly.js';

/** One structural problem of a description: where (a JSON pointer) and what. */
export interface StructureProblem {
  pointer: string;
  message: string;
}

/**
 * The problems that make a document not OpenAPI 3.x or Swagger 2.0 as its version defines them
 * (Redocly's `struct` rule: unknown or missing fields, values of the wrong kind), and only those:
 * style rules are a linter's business, not a patch's. `location` names the document in messages and
 * resolves its relative $refs.
 */
export async function checkStructure(text: string, location: string): Promise<StructureProblem[]> {
  const config = await createConfig({ extends: [], rules: { struct: 'error', 'no-unresolved-refs': 'error' } });
  const problems = await lintFromString({ source: text, absoluteRef: location, config });
  return problems.filter((problem) => problem.severity === 'error').map((problem) => ({ pointer: problem.location[0]?.pointer ?? '#', message: problem.message }));
}
