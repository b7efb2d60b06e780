import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * Depth and complexity of one operation, fragments expanded, computed once per document (the
 * engine caches prepared documents, so this never runs per request).
 *
 * - depth: fields nested along the deepest path (`{ user { name } }` is 2); fragments add none.
 * - complexity: every field selected counts 1 (graphql-query-complexity's simpleEstimator with
 *   defaultComplexity 1), each spread of a fragment counting its fields again; `__typename` is free.
 *
 * Introspection (`__schema`, `__type`) counts as one field of depth 1: its own nesting is bounded
 * by graphql-js's MaxIntrospectionDepthRule, part of the standard rules since 16.9, so an IDE's
 * introspection query passes the defaults (max_depth 15, max_complexity 1000) however deep its
 * TypeRef fragment goes.
 *
 * Why not graphql-query-complexity: it coerces the request's variables (reporting a missing
 * required one as an error) and so runs per request, where this is computed once per cached
 * document; fragments are memoised here, so a document of exponentially nested spreads costs
 * linear time to measure (the library walks every expansion, up to its maxQueryNodes).
 * @skip/@include are counted as if included (the variables are not known yet): an upper bound.
 */
export interface OperationCost {
  depth: number;
  complexity: number;
}

export function operationCost(document: DocumentNode, operation: OperationDefinitionNode): OperationCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const memo = new Map<string, OperationCost>();
  const visiting = new Set<string>();

  const costOf = (set: SelectionSetNode): OperationCost => {
    let depth = 0;
    let complexity = 0;
    for (const selection of set.selections) {
      let cost: OperationCost;
      switch (selection.kind) {
        case Kind.FIELD: {
          const name = selection.name.value;
          if (name === '__typename') cost = { depth: 1, complexity: 0 };
          else if (name === '__schema' || name === '__type') cost = { depth: 1, complexity: 1 };
          else if (selection.selectionSet === undefined) cost = { depth: 1, complexity: 1 };
          else {
            const inner = costOf(selection.selectionSet);
            cost = { depth: 1 + inner.depth, complexity: 1 + inner.complexity };
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
            if (fragment === undefined || visiting.has(name)) cost = { depth: 0, complexity: 0 };
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
    }
    return { depth, complexity };
  };
  return costOf(operation.selectionSet);
}
