import { smallRecordsBudget, type StoreBudget } from '../store/index.js';
import type { PluginHealth } from './plugin-host.js';

/** One small record per installed plugin. */
export const pluginHealthBudget: StoreBudget<PluginHealth> = smallRecordsBudget('plugins');
