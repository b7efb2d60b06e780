/**
 * One route as the servers know it: an operation of the API description, a custom route or a mock
 * created at run time. Made once per route and passed with every request, so the statistics key
 * their counters by the object itself and never build or hash a string on the request path.
 */
export interface RouteRef {
  /** `GET /v1/pets/{petId}`. */
  key: string;
  /** `GET`. */
  method: string;
  /** The pattern, `/v1/pets/{petId}`. */
  path: string;
  /**
   * Tells apart routes that share a key (`description GET /v1/pets`, a mock.yaml route with
   * conditions, the runtime mocks of a key): the statistics count each on its own as well, so the
   * Routes page shows what each answered. None: counted by its key only.
   */
  id?: string;
}
