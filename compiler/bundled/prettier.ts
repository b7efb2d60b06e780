// Stands in for prettier in the bundle of json-schema-to-typescript (scripts/bundle-libraries.js):
// its formatter requires prettier at load but calls it only with `format: true`, which the
// compiler never passes.
export function format(): never {
  throw new Error('prettier is not shipped with mock: json-schema-to-typescript must run with format: false');
}
