import { isNonNullType, type GraphQLInputType, type GraphQLOutputType } from 'graphql';

/** `T!` → `T`; other types as they are. */
export function unwrapNonNull<T extends GraphQLOutputType | GraphQLInputType>(type: T): T {
  return (isNonNullType(type) ? type.ofType : type) as T;
}
