import type { CallbackMeta, CustomRouteMeta, OperationMeta, WebhookMeta } from '../../common/contract/index.js';
import type { Ir, IrOperation } from '../ir/types.js';
import type { AjvSchemas } from './ajv-schemas.js';
import { buildTree, emitRouter, type RouteEntry } from './router/index.js';
import { bodyFormat } from './media.js';
import { itemKind, valueKind } from './value-kind.js';
import { isPlain, valueShape } from './value-shape.js';
import { comment } from './comment.js';
import { GENERATED_HEADER } from './header.js';
import { importContract } from './contract.js';

/** Conditions rank custom routes: query before header before body conditions, all before plain ones. */
const OPERATION_RANK = 100;

/**
 * routes.ts: the radix router specialised to this API plus the per-operation facts the
 * runtime needs (parameter coercion plan, accepted request media types, validator names).
 */
export function emitRoutes(ir: Ir, schemas: AjvSchemas): string {
  const entries: RouteEntry[] = [
    ...ir.routes.map((r) => ({ kind: 'route' as const, index: r.index, method: r.method, path: r.path, rank: routeRank(r.match) })),
    // operations told apart by a query in their path key come before the plain one at that path
    ...ir.operations.map((op) => ({ kind: 'op' as const, index: op.index, method: op.method, path: op.path, rank: OPERATION_RANK - Object.keys(op.queryMatch ?? {}).length })),
  ];
  const operations = ir.operations.map((op) => emitOperationMeta(ir, op, schemas));
  const routes = ir.routes.map((r) => {
    const meta: CustomRouteMeta = { method: r.method, path: r.path, match: r.match };
    return `  ${comment(`${r.method} ${r.path}`)} ${JSON.stringify(meta)}`;
  });
  const keys = [...ir.operations.map((op) => op.key), ...ir.routes.map((r) => `${r.method} ${r.path}`)];
  const behaviours = ir.behaviours.map((b) => `  ${comment(keys[b.route])} ${JSON.stringify(b)}`);
  // a generated parameter's schema lives on in its generator (responders.ts), not here
  const callbacks = ir.callbacks.map((c) => {
    const meta: CallbackMeta = { ...c, ...(c.parameters === undefined ? {} : { parameters: c.parameters.map(({ schema: _schema, ...p }) => p) }) };
    return `  ${comment(`${keys[c.route]}: ${c.name}`)} ${JSON.stringify(meta)}`;
  });
  const webhooks = ir.webhooks.map((w) => {
    const meta: WebhookMeta = { ...w, ...(w.parameters === undefined ? {} : { parameters: w.parameters.map(({ schema: _schema, ...p }) => p) }) };
    return `  ${comment(w.name)} ${JSON.stringify(meta)}`;
  });
  // only builds that have them export them: every other build stays byte for byte as it was
  const optional = [
    ...(callbacks.length === 0 ? [] : [`export const callbacks: CallbackMeta[] = [\n${callbacks.join(',\n')}\n];\n`]),
    ...(webhooks.length === 0 ? [] : [`export const webhooks: WebhookMeta[] = [\n${webhooks.join(',\n')}\n];\n`]),
  ];
  const types = [...(callbacks.length === 0 ? [] : ['CallbackMeta']), 'CustomRouteMeta', 'OperationMeta', 'RouteBehaviourMeta', 'Terminal', ...(webhooks.length === 0 ? [] : ['WebhookMeta'])];
  return `${GENERATED_HEADER}
${importContract(types)}
export const operations: OperationMeta[] = [
${operations.join(',\n')}
];

export const customRoutes: CustomRouteMeta[] = [
${routes.join(',\n')}
];

export const behaviours: RouteBehaviourMeta[] = [
${behaviours.join(',\n')}
];
${optional.map((text) => `\n${text}`).join('')}
${emitRouter(buildTree(entries))}
`;
}

function routeRank(match: Ir['routes'][number]['match']): number {
  return 10 - (match.query ? 4 : 0) - (match.headers || match.client_certificate ? 2 : 0) - (match.body !== undefined || match.json_path !== undefined ? 1 : 0);
}

function emitOperationMeta(ir: Ir, op: IrOperation, schemas: AjvSchemas): string {
  const ids = schemas.ids[op.index];
  const meta: OperationMeta = {
    key: op.key,
    method: op.method,
    path: op.path,
    ...(op.queryMatch === undefined ? {} : { queryMatch: op.queryMatch }),
    operationId: op.operationId ?? null,
    summary: op.summary ?? null,
    description: op.description ?? null,
    tags: op.tags,
    params: op.parameters.map((p) => {
      const shape = valueShape(p.schema, ir.definitions);
      return {
        name: p.name,
        declaredName: p.declaredName,
        in: p.in,
        required: p.required,
        kind: valueKind(p.schema, ir.definitions),
        items: itemKind(p.schema, ir.definitions),
        style: p.style,
        explode: p.explode,
        ...(isPlain(shape) ? {} : { shape }),
        ...(p.allowEmptyValue ? { allowEmptyValue: p.allowEmptyValue } : {}),
      };
    }),
    paramsValidator: ids.params ?? null,
    body: op.requestBody
      ? {
          required: op.requestBody.required,
          contents: op.requestBody.contents.map((c, ci) => {
            const format = bodyFormat(c.mediaType);
            return {
              type: c.mediaType.toLowerCase(),
              format,
              validator: ids.bodies[ci] ?? null,
              shape: format === 'form' || format === 'multipart' ? valueShape(c.schema, ir.definitions) : null,
              encoding: format === 'form' || format === 'multipart' ? (c.encoding ?? null) : null,
              ...((format === 'form' || format === 'multipart') && c.nonEmptyFields !== undefined ? { nonEmpty: c.nonEmptyFields } : {}),
              ...(c.sequence === undefined ? {} : { sequence: { framing: c.sequence.framing, itemValidator: ids.bodyItems[ci] ?? null } }),
            };
          }),
        }
      : null,
    security: op.security.map((s) => ({ scheme: s.scheme, type: s.type, detail: s.detail ?? null, name: s.name ?? null, bearerFormat: s.bearerFormat ?? null })),
    securityRequirements: op.securityRequirements,
    ...(op.requiredScopes.some((scopes) => Object.keys(scopes).length > 0) ? { requiredScopes: op.requiredScopes } : {}),
  };
  return `  ${comment(String(op.index))} ${JSON.stringify(meta)}`;
}
