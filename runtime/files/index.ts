export { AtomicWriter } from './atomic-writer.js';
export { RecordingFile } from './recording-file.js';
export { WaitingBytes } from './waiting-bytes.js';
export { assetReply, pagePolicy, webBundle, type BundleFile, type WebBundle } from './web-bundle.js';
