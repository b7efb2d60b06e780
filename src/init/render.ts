import path from 'node:path';
import { isMap, isNode, isScalar, parseDocument } from 'yaml';

/**
 * The placeholder blueprint files use for the project's name. Deliberately not `{{…}}`: that is
 * the syntax of mock's own response templates, which blueprints use too.
 */
export const PROJECT_NAME_PLACEHOLDER = '__PROJECT_NAME__';

/** Replaces the placeholder, escaping the name for the file's syntax (blueprints write it inside double-quoted YAML strings). */
export function fillProjectName(text: string, file: string, projectName: string): string {
  const ext = path.extname(file).toLowerCase();
  const value = ext === '.yaml' || ext === '.yml' || ext === '.json' ? JSON.stringify(projectName).slice(1, -1) : projectName;
  return text.split(PROJECT_NAME_PLACEHOLDER).join(value);
}

const EXAMPLES_BLOCK = /^[ \t]*<!-- examples -->\r?\n([\s\S]*?)^[ \t]*<!-- \/examples -->\r?\n/gm;
const NO_EXAMPLES_BLOCK = /^[ \t]*<!-- no-examples -->\r?\n([\s\S]*?)^[ \t]*<!-- \/no-examples -->\r?\n/gm;

/** Markdown: keeps the content of `<!-- examples -->` or `<!-- no-examples -->` blocks as asked, and drops the markers. */
export function selectExampleBlocks(markdown: string, examples: boolean): string {
  return markdown.replace(EXAMPLES_BLOCK, (_, body: string) => (examples ? body : '')).replace(NO_EXAMPLES_BLOCK, (_, body: string) => (examples ? '' : body));
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * OpenAPI: removes `example` and `examples` from every response media type (operations' responses
 * and `components.responses`), so responses are generated from the schemas. The lines of those
 * entries are cut from the text, so everything else (comments, layout, quoting) stays as written.
 */
export function stripResponseExamples(yamlText: string): string {
  const doc = parseDocument(yamlText);
  const responseMaps: unknown[] = [];
  const paths = doc.get('paths');
  if (isMap(paths)) {
    for (const item of paths.items) {
      if (!isMap(item.value)) continue;
      for (const method of METHODS) {
        const operation = item.value.get(method);
        if (isMap(operation)) responseMaps.push(operation.get('responses'));
      }
    }
  }
  responseMaps.push(doc.getIn(['components', 'responses']));
  const cuts: Array<[number, number]> = [];
  for (const responses of responseMaps) {
    if (!isMap(responses)) continue;
    for (const response of responses.items) {
      const content = isMap(response.value) ? response.value.get('content') : undefined;
      if (!isMap(content)) continue;
      for (const media of content.items) {
        if (!isMap(media.value)) continue;
        for (const pair of media.value.items) {
          if (!isScalar(pair.key) || (pair.key.value !== 'example' && pair.key.value !== 'examples')) continue;
          const from = pair.key.range?.[0];
          const to = (isNode(pair.value) ? pair.value : pair.key).range?.[2];
          if (from !== undefined && to !== undefined) cuts.push([lineStart(yamlText, from), lineEnd(yamlText, to)]);
        }
      }
    }
  }
  let out = yamlText;
  for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + out.slice(to);
  return out;
}

const lineStart = (text: string, at: number): number => text.lastIndexOf('\n', at - 1) + 1;

/** After the line break ending the line that holds `at - 1` (a node's end is just past its last character). */
function lineEnd(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at;
  const newline = text.indexOf('\n', at);
  return newline === -1 ? text.length : newline + 1;
}
