// Subscriptions that follow mutations (issue 37, item 13): a graphql-ws client subscribed, a
// mutation sent over HTTP, and the subscription receiving the object the mutation wrote at once,
// between its timer's events, which go on as before. By the naming convention (issueCreate →
// issueCreated, updateIssue → issueUpdated with a payload type, deleteIssue → issueDeleted) and by
// graphql.overrides.$emits, whose names are checked at start.
import t from 'tap';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { runMock, startCommand, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const SDL = `
type Query { issues: [Issue!]! }
type Issue { id: ID! title: String! state: String }
type IssueEvent { issue: Issue! action: String }
input IssueInput { title: String! state: String }
type IssuePayload { success: Boolean! issue: Issue }
type Mutation {
  issueCreate(input: IssueInput!): IssuePayload!
  updateIssue(id: ID!, input: IssueInput!): Issue
  deleteIssue(id: ID!): Boolean!
  addIssue(title: String!): Issue!
}
type Subscription {
  issueCreated: Issue!
  issueUpdated: IssueEvent!
  issueDeleted: Issue
  issueOpened: Issue
}
`;

function project(overrides) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'schema.graphql'), SDL);
  writeFileSync(path.join(dir, 'mock.yaml'), `server: { graphql_port: 0 }\ngraphql:\n  schema: schema.graphql\n  subscriptions: { interval_ms: 150 }\n  overrides: ${JSON.stringify(overrides)}\n`);
  return dir;
}

const dir = project({ $emits: { addIssue: ['issueOpened'] } });
const server = await startCommand(['serve', '--host', '127.0.0.1', '-c', path.join(dir, 'mock.yaml')], /GraphQL on (http:\/\/\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const client = createClient({ url: server.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0 });
t.teardown(() => client.dispose());

const gql = async (query, variables) => {
  const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return (await res.json()).data;
};

/** Subscribes to `field` (until the test ends), waits for its first timer event (so it is live), runs `mutate`; `after()` is the events since. */
async function follow(t, field, selection, mutate) {
  const events = [];
  t.teardown(client.subscribe({ query: `subscription { ${field} ${selection} }` }, { next: (e) => events.push(e.data[field]), error: (e) => events.push({ error: e }), complete: () => {} }));
  await until(() => events.length >= 1, 10_000, `a timer event of ${field}`);
  const before = events.length;
  const result = await mutate();
  return { result, after: () => events.slice(before) };
}

t.test('issueCreate emits the created object on issueCreated, and the timer goes on', async (t) => {
  const events = [];
  const stop = client.subscribe({ query: 'subscription { issueCreated { id title state } }' }, { next: (e) => events.push(e.data.issueCreated), error: (e) => events.push({ error: e }), complete: () => {} });
  t.teardown(stop);
  await until(() => events.length >= 1, 10_000, 'the first timer event');
  const created = (await gql('mutation { issueCreate(input: { title: "Broken build", state: "open" }) { success issue { id } } }')).issueCreate.issue;
  const event = await until(() => events.find((e) => e.id === created.id), 10_000, 'the created issue on the subscription');
  t.same(event, { id: created.id, title: 'Broken build', state: 'open' }, 'the object the mutation wrote');
  const at = events.indexOf(event);
  await until(() => events.length > at + 1, 10_000, 'a timer event after it');
  t.not(events[at + 1].id, created.id, 'the timer events go on, mocked as before');
  t.notOk(events.some((e) => e.error), 'no error');
});

t.test('updateIssue emits on issueUpdated inside its payload type; deleteIssue emits the object as it was', async (t) => {
  const id = (await gql('mutation { issueCreate(input: { title: "A" }) { issue { id } } }')).issueCreate.issue.id;
  const updated = await follow(t, 'issueUpdated', '{ issue { id title } action }', () => gql('mutation ($id: ID!) { updateIssue(id: $id, input: { title: "B" }) { id } }', { id }));
  const event = await until(() => updated.after().find((e) => e.issue?.id === id), 10_000, 'the updated issue');
  t.match(event, { issue: { id, title: 'B' }, action: String }, 'the payload holds the object; its other fields are mocked');

  const deleted = await follow(t, 'issueDeleted', '{ id title }', () => gql('mutation ($id: ID!) { deleteIssue(id: $id) }', { id }));
  t.same(await until(() => deleted.after().find((e) => e?.id === id), 10_000, 'the deleted issue'), { id, title: 'B' });
});

t.test('graphql.overrides.$emits names the pairs', async (t) => {
  const opened = await follow(t, 'issueOpened', '{ id title }', () => gql('mutation { addIssue(title: "Named") { id } }'));
  const id = opened.result.addIssue.id;
  t.same(await until(() => opened.after().find((e) => e?.id === id), 10_000, 'the issue addIssue wrote'), { id, title: 'Named' });

  const bad = project({ $emits: { addIsue: 'issueOpend' } });
  const refused = await runMock(['serve', '--host', '127.0.0.1', '-c', path.join(bad, 'mock.yaml')], { cwd: bad, timeoutMs: 30_000 });
  t.not(refused.code, 0, 'mock serve stops');
  t.match(refused.stderr + refused.stdout, /graphql\.overrides\.\$emits\.addIsue: no mutation addIsue in the schema \(did you mean addIssue\?\)/);
  t.match(refused.stderr + refused.stdout, /no subscription issueOpend in the schema \(did you mean issueOpened\?\)/);
});
