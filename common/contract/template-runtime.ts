/** The parts of a request a template can read. */
export interface TemplateContext {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  /** lower-cased header names */
  headers: Record<string, string>;
  /** parsed JSON body (or form fields object), undefined when none */
  body: unknown;
  /** Values of the names a template was parsed with (`resource_id` in a state's body_template). */
  vars?: Readonly<Record<string, string>>;
}

/** Helpers the compiled templates call as `t.<name>(...)`; arguments are resolved at build time. */
export interface TemplateRuntime {
  uuid(): string;
  /** ISO 8601 UTC timestamp, `offsetMs` from the runtime's clock. */
  now(offsetMs: number): string;
  /** Inclusive bounds. */
  randInt(min: number, max: number): number;
  randFloat(min: number, max: number): number;
  faker(module: string, method: string): unknown;
  path(c: TemplateContext, name: string): string | undefined;
  query(c: TemplateContext, name: string): string | undefined;
  header(c: TemplateContext, name: string): string | undefined;
  body(c: TemplateContext, path: readonly string[]): unknown;
  /** Value as raw text. */
  str(value: unknown): string;
  /** Value as JSON string content. */
  json(value: unknown): string;
  truthy(value: unknown): boolean;
  /**
   * `{{plugin:<plugin>:<action>(<args>)}}`: the action's answer as text for the target (`insert`:
   * the helper of str or json), `input` being the arguments as JSON array text; `source`, the call
   * as written, where no plugins are loaded.
   */
  plugin(plugin: string, action: string, input: string, source: string, insert: 'json' | 'str'): string;
}
