/**
 * What `mock contract-diff compare` reports (issue 39, "Compare"): each difference between an old
 * and a new description of one API, whichever kind (OpenAPI, GraphQL, .proto), as one change with
 * a stable check id. Every comparer of a kind answers a list of these; the command sorts, filters
 * and prints them the same way for all.
 */
export type Severity = 'error' | 'warning' | 'info';

/** The severities as the command's output and `--fail-on` name them: breaking, possibly breaking, safe. */
export const SEVERITY_MEANING: Readonly<Record<Severity, string>> = { error: 'breaking', warning: 'possibly breaking', info: 'safe' };

export type DescriptionKind = 'openapi' | 'graphql' | 'proto';

export interface Change {
  /** A stable, documented check id in kebab case (`response-property-removed`, `field-type-changed`); never reworded once released. */
  readonly id: string;
  readonly severity: Severity;
  readonly kind: DescriptionKind;
  /** Where: `GET /pets/{id}` and a JSON pointer for OpenAPI, `Type.field` for GraphQL, `package.Service/Method` or `package.Message.field` for .proto. */
  readonly location: string;
  /** One line a reviewer reads: what changed and why it matters. */
  readonly message: string;
}
