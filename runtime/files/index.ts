export { AtomicWriter } from './atomic-writer.js';
