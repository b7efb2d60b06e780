import type { RouteResponder } from '../../../common/contract/index.js';
import type { Answer, Exchange } from '../../chain/exchange/index.js';
import type { TemplateContext, TemplateRuntime } from '../../template/index.js';
import { requestContext } from './request-context.js';

/** A custom route's answer: its status, headers and body, templates expanded when `expand` (the request context made once, if a template needs it). */
export function customRouteAnswer(route: RouteResponder, ex: Exchange, templates: TemplateRuntime, expand: boolean): Answer {
  const context = (): TemplateContext => requestContext(ex);
  let ctx: TemplateContext | undefined;
  const headers: Array<[string, string]> = route.headers.map(([name, value, template]) => [name, expand && template !== null ? template(templates, (ctx ??= context())) : value]);
  if (route.type !== null) headers.push(['content-type', route.type]);
  const text = expand && route.template !== null ? route.template(templates, (ctx ??= context())) : route.body;
  return { status: route.status, headers, body: text, source: 'custom_route' };
}
