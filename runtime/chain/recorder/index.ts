/**
 * The recorder database (`mock serve --recorder`): every exchange in an SQLite file, queued on the
 * request path and written in batches by a writer thread, read back by the admin API and the
 * commands, and converted into fixtures or custom routes.
 */
export { RecorderDb, type RecorderOptions, type RecorderStats } from './recorder-db.js';
export { RecordingsFile } from './recordings-file.js';
export { CONVERT_FORMATS, convertRecording, toFixture, toFixtures, toRoutesYaml, type ConvertFormat, type Converted } from './convert.js';
export { RECORDINGS_TABLE, type Recording, type RecordingSummary } from './schema.js';
