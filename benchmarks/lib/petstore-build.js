// The generated `GET /v1/pets` answer of a build of examples/petstore.yaml, for the benchmarks
// that serve or document its body outside the mock.
import { createGenRuntime, loadBuild } from '../../dist/runtime/index.js';

/** Its 200 response (with the x-next header generators) and that response's JSON content. */
export async function listPetsAnswer(buildDir, options = {}) {
  const build = await loadBuild(buildDir);
  const listPets = build.operations.findIndex((op) => op.operationId === 'listPets');
  const { responses } = build.createResponders(createGenRuntime(options)).operations[listPets];
  const ok = responses.find((r) => r.status === 200);
  return { ok, content: ok.contents[0] };
}
