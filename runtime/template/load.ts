import type { TemplateContext } from './accessors.js';
import type { TemplateRuntime } from './runtime.js';

export type RenderTemplate = (t: TemplateRuntime, c: TemplateContext) => string;

/**
 * Turns compiler output into a callable. Generated servers inline the source instead;
 * this is for tests and tools that hold the source as a string.
 */
export function loadTemplate(source: string): RenderTemplate {
  return new Function(`return ${source};`)() as RenderTemplate;
}
