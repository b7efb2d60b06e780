/**
 * The build folder's own package.json. Node (and TypeScript under `node16`/`nodenext`) reads a
 * `.js` file as an ES module or as CommonJS by the `type` of the nearest package.json, so without
 * this file a build sitting in a CommonJS project (what `npm init -y` writes) fails to load. Being
 * the nearest package.json of every file in the folder, it settles the question whatever project
 * holds the build. Preferred to `.mjs`/`.mts` names: the files keep the names users import and
 * that the `.ts` sources' `./routes.js` imports resolve to. No `name`: it is not a package to publish.
 */
export const PACKAGE_JSON = `${JSON.stringify({ type: 'module' }, null, 2)}\n`;
