export { AtomicWriter } from './atomic-writer.js';
export { RecordingFile } from './recording-file.js';
export { WaitingBytes } from './waiting-bytes.js';
