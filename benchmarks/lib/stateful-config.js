// A state machine on GET /v1/pets/{petId} of examples/petstore.yaml: a transition from its initial
// state to itself, answering a body template. What bench:http's stateful row and bench:redis's
// stateful rows serve, so their figures describe the same work.
export const STATEFUL_PETS_CONFIG = [
  'core:',
  '  stateful:',
  '    enabled: true',
  '    state_machines:',
  '      - name: pets',
  '        initial_state: seen',
  '        resource_id_extract: { type: path_param, param: petId }',
  '        states: [{ name: seen, response: { status_code: 200, body_template: { id: "{{resource_id}}", state: seen } } }]',
  '        transitions: [{ method: GET, path_pattern: "/v1/pets/{petId}", from_state: seen, to_state: seen }]',
  '',
].join('\n');
