export { AtomicWriter } from './atomic-writer.js';
export { RecordingFile } from './recording-file.js';
