// The HTML conformance report, opened in headless Chromium (Debian's `chromium`, driven by
// playwright-core): its summary, the definite issues (server text escaped, never run), and the
// missed-negatives table honouring --report-missed-cap.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMock, tmpdir } from '../helpers/cli.js';
import { BROKEN_SPEC, GOOD_TOKEN, startBrokenServer } from './fixtures.js';
import { renderHtml } from '../../dist/src/conformance/html.js';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM) && process.env.CI !== 'true') {
  t.skip(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the HTML report check; CI always runs it`);
} else {
  t.test('the HTML report in Chromium', async (t) => {
    const { chromium } = await import('playwright-core');
    const dir = tmpdir();
    writeFileSync(path.join(dir, 'broken.yaml'), BROKEN_SPEC);
    const server = await startBrokenServer();
    t.teardown(() => server.close());
    const run = await runMock(['bench', '--conformance', '--spec', 'broken.yaml', '--target', server.url, '--auth', `bearer:${GOOD_TOKEN}`, '--output', 'reports/run', '--report-missed-cap', '2'], { cwd: dir });
    t.equal(run.code, 1, run.stderr);
    const report = JSON.parse(readFileSync(path.join(dir, 'reports', 'run.json'), 'utf8'));
    const missed = report.probes.filter((p) => p.verdict === 'missed_negative').length;
    t.equal(missed, 6);
    // the same report with the default cap and with none
    writeFileSync(path.join(dir, 'reports', 'all.html'), renderHtml(report, 200));
    writeFileSync(path.join(dir, 'reports', 'none.html'), renderHtml(report, 0));

    const context = await chromium.launchPersistentContext(tmpdir(), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      d.dismiss();
    });
    const open = (file) => page.goto(pathToFileURL(path.join(dir, 'reports', file)).href);

    await open('run.html');
    t.equal(await page.title(), 'Conformance report: broken.yaml');
    t.match(await page.textContent('#result'), /4 finding\(s\): 3 server error\(s\), 1 valid request\(s\) rejected, 6 missed negative\(s\)/);
    t.equal(await page.textContent('.card.server_error .count'), '3');
    t.equal(await page.textContent('.card.valid_request_rejected .count'), '1');
    t.equal(await page.textContent('.card.missed_negative .count'), '6');
    const categories = await page.$$eval('#summary-table tbody tr', (rows) => rows.map((r) => [r.dataset.category, Number(r.lastElementChild.textContent)]));
    const expected = ['positive', 'request-body', 'parameters', 'security', 'owasp'].map((c) => [c, report.probes.filter((p) => p.category === c).length]);
    t.same(categories, expected, 'one summary row per category, in order, with its probe count');
    const bodyErrors = await page.$$eval('#summary-table tbody tr[data-category="request-body"] td.server_error', (cells) => cells.map((c) => c.textContent));
    t.same(bodyErrors, ['1'], 'the request-body row counts its server error');

    const issues = await page.$$eval('#definite-issues-table tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    t.equal(issues.length, 4);
    const sqli = issues.find((cells) => cells[0] === 'owasp:sqli:body.name');
    t.match(sqli[6], '<b>SQL error</b>', 'the server text is shown as text');
    t.match(sqli[6], '<script>window.__pwned = 1</script>');
    t.equal(await page.evaluate(() => window.__pwned), undefined, 'and never run');
    t.equal(await page.$$eval('#definite-issues-table b, #definite-issues-table script', (n) => n.length), 0, 'no markup from the server in the page');

    t.equal(await page.$$eval('#missed-negatives-table tbody tr', (rows) => rows.length), 2, '--report-missed-cap 2: two rows');
    t.equal(await page.textContent('#missed-negatives-table caption'), 'Showing 2 of 6 (--report-missed-cap 2); all are in the JSON report.');
    t.match(await page.textContent('#missed-negatives h2'), 'Missed negatives (6)');
    t.ok(await page.$('#violations-table'), 'the server-side violation entries are listed');

    await open('all.html');
    t.equal(await page.$$eval('#missed-negatives-table tbody tr', (rows) => rows.length), 6, 'default cap: every row');
    const first = await page.$$eval('#missed-negatives-table tbody tr:first-child td', (cells) => cells.map((c) => c.textContent));
    t.match(first, [/^request-body:|^owasp:/, 'POST /items', /^POST \/items/, '4xx', '201']);

    await open('none.html');
    t.equal(await page.$('#missed-negatives-table'), null, '--report-missed-cap 0: no table');
    t.match(await page.textContent('#missed-negatives'), 'Table left out (--report-missed-cap 0); the 6 missed negative(s) are in the JSON report.');
    t.same(dialogs, [], 'no script ran');
  });
}
