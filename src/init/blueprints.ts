import { existsSync } from 'node:fs';
import { packageFile } from '../../common/package-root.js';

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

/** The folder holding the blueprint folders: `blueprints/` next to package.json, in a checkout and a package. */
export function blueprintsRoot(): string {
  const root = packageFile('blueprints');
  if (!existsSync(root)) throw new Error(`the blueprints folder of mock is missing (${root}); reinstall mock`);
  return root;
}
