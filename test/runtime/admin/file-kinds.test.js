// runtime/control/admin/file-kinds.ts: what files/content and files/save may touch.
import t from 'tap';
import { refusedKind } from '../../../dist/runtime/control/admin/file-kinds.js';

const files = { root: '/p', configFile: '/p/.mock.yaml', generatedDir: '/p/generated' };
const refused = (file) => refusedKind(files, file);

t.test('the files a user edits in the dashboard', async (t) => {
  for (const file of ['/p/mock.yaml', '/p/api.yml', '/p/specs/api.json', '/p/fixtures/get-pet.json', '/p/ws/replay.jsonl', '/p/proto/pet.proto', '/p/schema.graphql', '/p/data/users.csv', '/p/notes.txt', '/p/README.md', '/p/.mock.yaml']) {
    t.equal(refused(file), undefined, file);
  }
});

t.test('code, generated output, toolchain manifests, node_modules and dot-files are refused', async (t) => {
  const cases = {
    '/p/generated/petstore/index.js': /generated output/,
    '/p/generated/petstore/manifest.json': /generated output/,
    '/p/generated': /generated output/,
    '/p/plugin.js': /\.js files/,
    '/p/server.mjs': /\.mjs files/,
    '/p/src/app.ts': /\.ts files/,
    '/p/Makefile': /no file extension/,
    '/p/node_modules/x/package.json': /node_modules/,
    '/p/node_modules/x/data.json': /node_modules/,
    '/p/.env': /dot-file/,
    '/p/.git/config': /dot-file/,
    '/p/.github/workflows/ci.yml': /dot-folder/,
    '/p/other/.mock.yaml': /dot-file/,
    '/p/package.json': /toolchain manifest/,
    '/p/sub/package-lock.json': /toolchain manifest/,
    '/p/tsconfig.build.json': /toolchain manifest/,
    '/p/docker-compose.yml': /toolchain manifest/,
    '/p/compose.override.yaml': /toolchain manifest/,
  };
  for (const [file, reason] of Object.entries(cases)) t.match(refused(file), reason, file);
});
