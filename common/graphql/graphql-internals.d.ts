// graphql 16 keeps validateSDL out of its root exports; its ES module build is imported by path so
// that it is the same graphql instance as everything else (the CommonJS build would be a second one).
declare module 'graphql/validation/validate.mjs' {
  import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';

  export function validateSDL(documentAST: DocumentNode, schemaToExtend?: GraphQLSchema | null): ReadonlyArray<GraphQLError>;
}
