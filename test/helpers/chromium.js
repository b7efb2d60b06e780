// Debian's Chromium driven by playwright-core, launched the way the browser tests need it:
// headless, no sandbox (containers), nothing fetched from the network.
//
//   if (CHROMIUM_MISSING) t.skip(CHROMIUM_MISSING); else { const context = await launchChromium(); … }
import { existsSync } from 'node:fs';
import { tmpdir } from './cli.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Why browser tests cannot run here (false when they can; CI always has Chromium). */
export const CHROMIUM_MISSING =
  !existsSync(CHROMIUM) && process.env.CI !== 'true' ? `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests; CI always runs them` : false;

/** A persistent context of headless Chromium in a fresh profile; close it when done. */
export async function launchChromium(options = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(tmpdir(), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...options,
  });
}
