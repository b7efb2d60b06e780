/** One thing wrong with a request, as validation reports it. */
export interface ValidationIssue {
  /** path, query, header, cookie or body */
  location: string;
  /** Parameter name, or a JSON pointer into the body ('' for the whole body). */
  name: string;
  message: string;
  keyword: string;
}

/**
 * A request as the terminal's validation reads it (Exchange.validated()): computed at most once,
 * by whichever asks first, a stage (replay, stateful, the proxy) or the terminal, whose answer in
 * enforce mode it stays unless a stage answers itself.
 */
export interface Validated {
  /** By location (path, query, header, cookie): the parameters read by their styles and coerced to their schema types. */
  readonly params: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The body parsed by its media type (JSON, forms, multipart, XML); undefined when absent or unreadable. */
  readonly body: unknown;
  /** What is wrong with the request; empty when nothing is. */
  readonly issues: readonly ValidationIssue[];
  /** Set when the body's media type is not one the operation accepts (accepted is empty when it takes no body). */
  readonly unsupportedType?: { readonly given: string | undefined; readonly accepted: readonly string[] };
}
