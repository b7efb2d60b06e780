import { isDeepStrictEqual } from 'node:util';
import { apply as applyJsonPatch, JSONPatchError, type JSONValue, type OpObject } from 'json-p3';
import { parseDocument, stringify, type Document, type ParsedNode } from 'yaml';
import { MockError } from '../../../common/errors.js';
import { checkStructure } from '../../../compiler/index.js';
import { patchError, type PatchOperation } from './operations.js';
import { replayOnYaml } from './yaml-replay.js';

export interface PatchedDescription {
  /** The patched description, in the input's format (JSON or YAML). */
  text: string;
  format: 'json' | 'yaml';
  /** Set when a YAML description could not keep its comments and layout (written from the data instead): why. */
  layoutLost?: string;
}

/**
 * Applies a JSON Patch to a description's text and checks that the result is still an OpenAPI (or
 * Swagger) document. The operations run on the plain data first (json-p3, RFC 6902, `test`
 * included), so a patch that does not apply fails whole, naming the operation; a YAML description is
 * then patched node by node, keeping its comments and key order. `spec` names the description in
 * messages; `location`, its absolute path, resolves its relative $refs.
 */
export async function patchDescription(text: string, spec: { name: string; location: string }, operations: readonly PatchOperation[], patchSource: string): Promise<PatchedDescription> {
  const location = spec.name;
  const format: PatchedDescription['format'] = /^\s*[{[]/.test(text) ? 'json' : 'yaml';
  const doc = format === 'yaml' ? (parseDocument(text, { keepSourceTokens: true }) as Document.Parsed<ParsedNode>) : undefined;
  if (doc !== undefined && doc.errors.length > 0) throw new MockError('MOCK_ERR_SPEC_PARSE', `--spec ${location}: ${doc.errors[0].message.split('\n')[0]}`, 2);
  let data: unknown;
  try {
    data = doc === undefined ? JSON.parse(text) : doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    throw new MockError('MOCK_ERR_SPEC_PARSE', `--spec ${location}: ${(e as Error).message.split('\n')[0]}`, 2);
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(operations as OpObject[], structuredClone(data) as JSONValue);
  } catch (e) {
    if (e instanceof JSONPatchError) throw patchError(patchSource, `does not apply to ${location}: ${e.message}`);
    throw e;
  }
  const result = doc === undefined ? { text: `${JSON.stringify(patched, null, indentOf(text))}\n`, format } : yamlText(doc, operations, patched);
  const problems = await checkStructure(result.text, spec.location);
  if (problems.length > 0) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new MockError('MOCK_ERR_PATCH_RESULT', `--patch ${patchSource}: the patched ${location} is not a valid description: ${first.message} at ${first.pointer}${more}; nothing was written`, 2);
  }
  return result;
}

function yamlText(doc: Document.Parsed<ParsedNode>, operations: readonly PatchOperation[], patched: unknown): PatchedDescription {
  try {
    replayOnYaml(doc, operations);
    const text = doc.toString({ lineWidth: 0 });
    // the node-by-node edit must say what the data says; anything else is written from the data
    if (isDeepStrictEqual(parseDocument(text).toJS({ maxAliasCount: 1000 }), patched)) return { text, format: 'yaml' };
    return { text: stringify(patched, { lineWidth: 0 }), format: 'yaml', layoutLost: 'the patched YAML nodes did not read back as the patched data' };
  } catch (e) {
    return { text: stringify(patched, { lineWidth: 0 }), format: 'yaml', layoutLost: (e as Error).message };
  }
}

/** The indentation a JSON text uses (2 when it cannot tell, none for a one-line document). */
function indentOf(text: string): string | number {
  if (!/\n/.test(text.trim())) return 0;
  const match = /\n([ \t]+)\S/.exec(text);
  return match === null ? 2 : match[1];
}
