import { readFileSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { AdminClient, adminFlags } from '../../cli/admin-client.js';

/** What the server answers: the delivery's outcome. */
interface Delivery {
  name: string;
  url: string;
  outcome: 'delivered' | 'failed' | 'refused';
  attempts: number;
  status: number;
  error: string | null;
}

/** Retries with their waits and time-outs can take a while (callbacks.retries, callbacks.timeout_ms). */
const SEND_TIMEOUT_MS = 120_000;

export default class WebhooksSend extends MockCommand {
  static summary = "Send one of the served description's OpenAPI 3.1 webhooks to a URL now, through a running mock serve.";

  static description =
    "The server sends it (POST /__mock/webhooks/{name}/send): with the description's example body (or one sampled from its schema) unless --body or --body-file gives one, signed per Standard Webhooks when callbacks.webhooks.secret is set, with the retries of callbacks.retries, and only to a host in callbacks.allowed_hosts (loopback by default). The outcome is in the request log (source callback).";

  static examples = [
    '<%= config.bin %> <%= command.id %> newPet --url http://localhost:4000/hooks',
    '<%= config.bin %> <%= command.id %> newPet --url http://localhost:4000/hooks --body \'{"id": 7, "name": "Rex"}\'',
    '<%= config.bin %> <%= command.id %> newPet --url http://localhost:4000/hooks --body-file pet.json --admin-url http://127.0.0.1:3000 --json',
  ];

  static args = {
    name: Args.string({ description: "The webhook's name in the description (webhooks.<name>).", required: true }),
  };

  static flags = {
    ...adminFlags,
    url: Flags.string({ description: 'Where to send it: an http(s) URL whose host is in callbacks.allowed_hosts.', required: true }),
    body: Flags.string({ description: "The body as JSON, instead of the description's example.", exclusive: ['body-file'] }),
    'body-file': Flags.string({ description: 'A file holding the body as JSON.', exclusive: ['body'] }),
    json: Flags.boolean({ description: 'Print the outcome as JSON.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(WebhooksSend);
    const body = flags.body !== undefined ? parseBody(flags.body, '--body') : flags['body-file'] !== undefined ? parseBody(readBody(flags['body-file']), flags['body-file']) : undefined;
    const client = new AdminClient(flags, SEND_TIMEOUT_MS);
    const result = await client.call<Delivery>('POST', `webhooks/${encodeURIComponent(args.name)}/send`, { url: flags.url, ...(body === undefined ? {} : { body }) });
    if (flags.json) this.log(JSON.stringify(result, null, 2));
    else
      this.log(
        `webhook ${result.name} to ${result.url}: ${result.outcome} after ${result.attempts} attempt(s)${result.status === 0 ? '' : `, status ${result.status}`}${result.error === null ? '' : ` (${result.error})`}`,
      );
    if (result.outcome !== 'delivered') this.exit(1);
  }
}

function readBody(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--body-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; give a readable JSON file`);
  }
}

function parseBody(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${where}: not JSON (${(e as Error).message}); give the body as JSON, such as '{"id": 7}'`);
  }
}
