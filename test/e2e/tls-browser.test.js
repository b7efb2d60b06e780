// Chromium reaches an HTTPS mock served with --tls-self-signed once told to trust that certificate
// (by its SPKI hash, --ignore-certificate-errors-spki-list: trust of this key only, not Playwright's
// ignoreHTTPSErrors, which trusts anything), and refuses it when not told.
import t from 'tap';
import { createHash, X509Certificate } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';

if (CHROMIUM_MISSING) {
  t.skip(CHROMIUM_MISSING);
} else {
  const dir = tmpdir();
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
  const server = await startCommand(['serve', '--spec', 'petstore.yaml', '--http-port', '0', '--host', '127.0.0.1', '--tls-self-signed'], /serving on (https:\/\/\S+)\/v1/, { cwd: dir });
  t.teardown(() => server.stop());
  const cert = new X509Certificate(readFileSync(path.join(dir, '.mock', 'tls', 'localhost.pem')));
  const spki = createHash('sha256')
    .update(cert.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
  const origin = server.url.replace('127.0.0.1', 'localhost');

  t.test('trusted by its SPKI hash: the page loads and fetches over https', async (t) => {
    const context = await launchChromium({ args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--ignore-certificate-errors-spki-list=${spki}`] });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const response = await page.goto(`${origin}/v1/pets`);
    t.equal(response.status(), 200, 'navigation to https://localhost answers 200');
    t.ok(Array.isArray(JSON.parse(await response.text())), 'with the mock body');
    const fetched = await page.evaluate(async (url) => (await fetch(url)).status, `${origin}/v1/pets`);
    t.equal(fetched, 200, "the page's fetch over https");
    t.equal(await page.evaluate(() => window.isSecureContext), true, 'a secure context');
  });

  t.test('not told to trust it: Chromium refuses the certificate', async (t) => {
    const context = await launchChromium();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const error = await page.goto(`${origin}/v1/pets`).then(
      () => undefined,
      (e) => e.message,
    );
    t.match(error, /ERR_CERT_AUTHORITY_INVALID/, 'the self-signed certificate is not trusted by default');
  });
}
