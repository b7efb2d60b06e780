/** How the comments mock build adds to schema.graphql start: the header and the line naming each file. */
export const BUILD_COMMENT = '# mock build: ';

/** The SDL as its files hold it, without the lines mock build added (what a subgraph's `_service { sdl }` returns). */
export const withoutBuildComments = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !line.startsWith(BUILD_COMMENT))
    .join('\n');
