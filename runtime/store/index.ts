export { andThen, STORE_NAMES, type Awaitable, type Store, type StoreBudget, type StoreChange, type StoreFactory, type StoreName, type StoreUsage } from './store.js';
export { Cell } from './cell.js';
export { MemoryStore } from './memory-store.js';
export { MemoryStores } from './memory-stores.js';
export { StoreRefusal } from './store-refusal.js';
export { settingsBudget } from './settings-budget.js';
export { smallRecordsBudget } from './small-records-budget.js';
export { StoreUnavailable } from './store-unavailable.js';
