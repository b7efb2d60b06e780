import type { ValidationOptions } from '../../serve-options.js';

/** The engine's settings the admin API changes at run time: one object its parts read, so a change reaches them all at once. */
export interface LiveSettings {
  validation: ValidationOptions;
  templateExpand: boolean;
}
