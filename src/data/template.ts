import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { MockError } from '../../common/errors.js';
import { hasTemplate, TemplateSyntaxError } from '../../common/template/index.js';
import { createTemplateRuntime, templateRenderer, type Render, type TemplateContext } from '../../runtime/index.js';
import type { ValueSource } from './values.js';

/** Opens with a JSON object or array: `{` or `[`, but not the `{{` of a leading template token. */
const LOOKS_LIKE_JSON = /^\s*(?:\[|\{(?!\{))/;

/** No request behind `mock data`: request.* tokens render as missing (the empty string). */
const NO_REQUEST: TemplateContext = Object.freeze({ path: {}, query: {}, headers: {}, body: undefined });

/**
 * Values of a response template, rendered with the server's template compiler and runtime.
 * A template that is JSON (inline, a .json file, or a .yaml/.yml file read as data) is compiled the
 * way the server compiles a JSON example: tokens inside JSON strings, inserted values escaped, and
 * each rendering is parsed back into a JSON value. Any other text renders to a string per value.
 */
export function templateSource(template: string, cwd: string): ValueSource {
  const { text, label, data } = readTemplate(template, cwd);
  let json: string | undefined;
  if (data !== undefined) json = JSON.stringify(data) ?? 'null';
  else {
    try {
      json = JSON.stringify(JSON.parse(text));
    } catch (e) {
      if (LOOKS_LIKE_JSON.test(text)) {
        throw new MockError(
          'MOCK_ERR_TEMPLATE',
          `${label}: looks like JSON but does not parse (${(e as Error).message}); put tokens inside JSON strings, e.g. {"id":"{{uuid}}"}`,
        );
      }
    }
  }
  const source = json ?? text;
  if (!hasTemplate(source)) {
    const constant = json === undefined ? text : JSON.parse(json);
    return { create: () => () => structuredClone(constant) };
  }
  let render: Render;
  try {
    render = templateRenderer(source, json === undefined ? 'none' : 'json');
  } catch (e) {
    if (e instanceof TemplateSyntaxError) throw new MockError('MOCK_ERR_TEMPLATE', `${label}: template error: ${e.message} (fix the {{…}} token)`);
    throw e;
  }
  return {
    create: (options) => {
      const runtime = createTemplateRuntime({ seed: options.seed, now: options.now });
      if (json === undefined) return () => render(runtime, NO_REQUEST);
      return () => JSON.parse(render(runtime, NO_REQUEST));
    },
  };
}

/** `--template <text>` or `--template @<file>`; a YAML file is data, turned into a JSON template. */
function readTemplate(template: string, cwd: string): { text: string; label: string; data?: unknown } {
  if (!template.startsWith('@')) {
    if (template.trim() === '') throw new MockError('MOCK_ERR_FLAG_INVALID', '--template: empty template (pass the template text, or @file)');
    return { text: template, label: '--template' };
  }
  const file = template.slice(1);
  const label = `--template ${template}`;
  const location = path.resolve(cwd, file);
  if (file === '' || !existsSync(location) || !statSync(location).isFile()) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${label}: file not found (checked ${location}; pass @<file> naming an existing template file)`);
  }
  const text = readFileSync(location, 'utf8');
  if (/\.ya?ml$/i.test(file)) {
    try {
      return { text, label, data: parseYaml(text) };
    } catch (e) {
      throw new MockError('MOCK_ERR_TEMPLATE', `${label}: not valid YAML: ${(e as Error).message.split('\n')[0].replace(/:\s*$/, '')} (fix the file)`);
    }
  }
  return { text, label };
}
