/** A uniform draw in [0, 1) from the continuum's seeded stream. */
export type Draw = () => number;

/**
 * Names of identifier fields: `id`, `uuid`, `guid`, and names ending in `_id`, `-id`, `Id`, `ID`,
 * `_uuid` or `Uuid` (`user_id`, `orderId`; not `paid`). Their values are never averaged.
 */
const WHOLE_IDENTIFIER = /^(?:id|uuid|guid)$/i;
const IDENTIFIER_SUFFIX = /(?:[_-](?:id|ID|uuid|UUID)|Id|ID|Uuid|UUID)$/;
const isIdentifier = (key: string | undefined): boolean => key !== undefined && (WHOLE_IDENTIFIER.test(key) || IDENTIFIER_SUFFIX.test(key));

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * field_level: a deep merge of two JSON values where each field comes from the upstream with
 * probability `ratio`, from the mock otherwise. Objects merge key by key (a key only one side
 * has is kept when that side is drawn, so the result is always what one of the two bodies says
 * there); arrays of equal length merge item by item; anything else (strings, numbers, booleans,
 * null, arrays of different lengths, values of different types) is taken whole from one side.
 * So identifiers, enums and integers are never invented: each is one source's value.
 */
export function fieldLevelMerge(mock: unknown, upstream: unknown, ratio: number, draw: Draw): unknown {
  return merge(mock, upstream, ratio, draw, false, undefined);
}

/**
 * body_blend: field_level, except that two numbers of a field that are not both integers and
 * whose name is not an identifier's (`price`, `score`, not `id`, `user_id`, `count: 3`) become
 * their average weighted by the ratio: mock × (1 − ratio) + upstream × ratio.
 */
export function bodyBlendMerge(mock: unknown, upstream: unknown, ratio: number, draw: Draw): unknown {
  return merge(mock, upstream, ratio, draw, true, undefined);
}

function merge(mock: unknown, upstream: unknown, ratio: number, draw: Draw, average: boolean, key: string | undefined): unknown {
  if (isObject(mock) && isObject(upstream)) {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(mock)) {
      if (Object.hasOwn(upstream, name)) out[name] = merge(mock[name], upstream[name], ratio, draw, average, name);
      else if (draw() >= ratio) out[name] = mock[name];
    }
    for (const name of Object.keys(upstream)) if (!Object.hasOwn(mock, name) && draw() < ratio) out[name] = upstream[name];
    return out;
  }
  if (Array.isArray(mock) && Array.isArray(upstream) && mock.length === upstream.length) {
    return mock.map((item, i) => merge(item, upstream[i], ratio, draw, average, key));
  }
  if (average && typeof mock === 'number' && typeof upstream === 'number' && !(Number.isInteger(mock) && Number.isInteger(upstream)) && !isIdentifier(key)) {
    return mock * (1 - ratio) + upstream * ratio;
  }
  return draw() < ratio ? upstream : mock;
}
