/** A request as the engine sees it, independent of the HTTP server library. */
export interface MockRequest {
  /** Upper-case method. */
  method: string;
  /** Path without the query string, as received (percent-encoded). */
  url: string;
  /** Raw query string without `?`. */
  query: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Raw body, undefined when the request carried none. */
  body?: Buffer;
}

export interface MockResponse {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}
