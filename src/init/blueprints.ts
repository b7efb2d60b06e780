import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The blueprints `mock init` can scaffold; each is a folder of plain files under `blueprints/`. */
export const BLUEPRINTS = {
  petstore: '(default) pets and their adoption; 6 operations under /v1',
  ecommerce: 'products, carts, orders: pending → processing → shipped; /api',
  'b2c-saas': 'user, plans, subscriptions: trialing → active → canceled; /v1',
  'banking-lite': 'accounts, transactions, OTP-confirmed transfers; /v1',
} as const;

export type BlueprintName = keyof typeof BLUEPRINTS;

export const BLUEPRINT_NAMES = Object.keys(BLUEPRINTS) as BlueprintName[];

export const DEFAULT_BLUEPRINT: BlueprintName = 'petstore';

/**
 * The folder holding the blueprint folders: `blueprints/` next to package.json, found by walking
 * up from this module (dist/src/init/ once compiled), so it works from a checkout and a package.
 */
export function blueprintsRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'blueprints');
    if (existsSync(path.join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`the blueprints folder of mock is missing (looked above ${from}); reinstall mock`);
  }
}
