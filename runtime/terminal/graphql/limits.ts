import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * Depth, complexity and aliases of one operation, fragments expanded, computed once per document
 * (the engine caches prepared documents, so this never runs per request).
 *
 * - depth: fields nested along the deepest path (`{ user { name } }` is 2); fragments add none.
 * - complexity: every field selected counts 1 (graphql-query-complexity's simpleEstimator with
 *   defaultComplexity 1), each spread of a fragment counting its fields again. Nothing is free:
 *   `__typename` counts, and so do `__schema`/`__type` and every field under them, so aliased
 *   copies of an introspection (or thousands of `__typename`) cannot make an answer for nothing.
 *   graphql-js's `getIntrospectionQuery()` (what GraphiQL and code generators send) costs 230
 *   with every option on, under the default max_complexity 1000.
 * - aliases: fields selected under an alias, counted like complexity (a fragment's per spread).
 *
 * Introspection still adds 1 to depth: the IDE query's TypeRef fragment nests 9 `ofType`s, 15
 * deep in all, and its lists are bounded by graphql-js's MaxIntrospectionDepthRule (a standard
 * rule since 16.9), its size by complexity, aliases and graphql.max_response_bytes.
 *
 * Why not graphql-query-complexity: it coerces the request's variables (reporting a missing
 * required one as an error) and so runs per request, where this is computed once per cached
 * document; fragments are memoised here, so a document of exponentially nested spreads costs
 * linear time to measure (the library walks every expansion, up to its maxQueryNodes). Aliases
 * are counted in the same walk rather than by graphql-armor's max-aliases rule, which would walk
 * the document a second time and by default lets `__typename` aliases through.
 * @skip/@include are counted as if included (the variables are not known yet): an upper bound.
 */
export interface OperationCost {
  depth: number;
  complexity: number;
  aliases: number;
}

const INTROSPECTION = new Set(['__schema', '__type']);

export function operationCost(document: DocumentNode, operation: OperationDefinitionNode): OperationCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const memo = new Map<string, OperationCost>();
  const visiting = new Set<string>();

  const costOf = (set: SelectionSetNode): OperationCost => {
    let depth = 0;
    let complexity = 0;
    let aliases = 0;
    for (const selection of set.selections) {
      let cost: OperationCost;
      switch (selection.kind) {
        case Kind.FIELD: {
          const alias = selection.alias === undefined ? 0 : 1;
          if (selection.selectionSet === undefined) cost = { depth: 1, complexity: 1, aliases: alias };
          else {
            const inner = costOf(selection.selectionSet);
            const depthOf = INTROSPECTION.has(selection.name.value) ? 1 : 1 + inner.depth;
            cost = { depth: depthOf, complexity: 1 + inner.complexity, aliases: alias + inner.aliases };
          }
          break;
        }
        case Kind.INLINE_FRAGMENT:
          cost = costOf(selection.selectionSet);
          break;
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          const known = memo.get(name);
          if (known !== undefined) cost = known;
          else {
            const fragment = fragments.get(name);
            // unknown fragments and cycles are refused by the standard rules before this runs
            if (fragment === undefined || visiting.has(name)) cost = { depth: 0, complexity: 0, aliases: 0 };
            else {
              visiting.add(name);
              cost = costOf(fragment.selectionSet);
              visiting.delete(name);
              memo.set(name, cost);
            }
          }
          break;
        }
      }
      if (cost.depth > depth) depth = cost.depth;
      complexity += cost.complexity;
      aliases += cost.aliases;
    }
    return { depth, complexity, aliases };
  };
  return costOf(operation.selectionSet);
}
