import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { bodyChecker } from '../body-schema.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import { EDITABLE_KINDS, refusedKind } from '../file-kinds.js';
import { realExisting, resolveInside } from '../project-files.js';
import type { AdminRoute } from '../router.js';

/** Larger files are not meant for the dashboard's editor. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** file_type tells the dashboard's editor how to show the file; the server reads every kind as text. */
const FILE_TYPES = ['yaml', 'json', 'text', 'config', 'spec', 'fixture'];

const checkContent = bodyChecker<{ file_path: string; file_type?: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['file_path'],
  properties: { file_path: { type: 'string' }, file_type: { type: 'string', enum: FILE_TYPES } },
});

const checkSave = bodyChecker<{ file_path: string; content: string; file_type?: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['file_path', 'content'],
  properties: { file_path: { type: 'string' }, content: { type: 'string', maxLength: MAX_FILE_BYTES }, file_type: { type: 'string', enum: FILE_TYPES } },
});

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'a part of the path is a file, not a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return code ?? (e instanceof Error ? e.message : String(e));
}

/**
 * The file a request names, inside the project and of a kind the dashboard edits (checked on the
 * path given and on the real path a symlink leads to), or a 400 naming what is allowed.
 */
function editable(ctx: AdminContext, endpoint: string, input: unknown): string {
  const file = resolveInside(ctx.projectDir, input, 'file_path');
  const reason = refusedKind(ctx.files, file) ?? refusedKind(ctx.files, realExisting(file));
  if (reason !== undefined) throw new AdminError(400, `${endpoint}: "${String(input)}" is not a file the admin API reads or writes: ${reason}; it edits ${EDITABLE_KINDS}`);
  return file;
}

export const fileRoutes: AdminRoute[] = [
  {
    method: 'POST',
    path: 'files/content',
    handler: async (call) => {
      const body = checkContent(call.json(), 'files/content');
      const file = editable(call.ctx, 'files/content', body.file_path);
      const info = await stat(file).catch(() => undefined);
      if (info === undefined) throw new AdminError(404, `file not found: ${body.file_path} (in ${call.ctx.projectDir})`);
      if (!info.isFile()) throw new AdminError(400, `file_path "${body.file_path}" is not a regular file`);
      if (info.size > MAX_FILE_BYTES) throw new AdminError(400, `file_path "${body.file_path}" is ${info.size} bytes; the admin API reads files up to ${MAX_FILE_BYTES}`);
      try {
        return ok(await readFile(file, 'utf8'));
      } catch (e) {
        throw new AdminError(400, `cannot read ${body.file_path}: ${reason(e)}`);
      }
    },
  },
  {
    method: 'POST',
    path: 'files/save',
    handler: async (call) => {
      const body = checkSave(call.json(), 'files/save');
      const file = editable(call.ctx, 'files/save', body.file_path);
      const info = await stat(file).catch(() => undefined);
      if (info !== undefined && !info.isFile()) throw new AdminError(400, `file_path "${body.file_path}" is not a regular file`);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        // temp file + rename: a reader never sees half a file, a crash never loses the old one
        await call.ctx.files.writer.write(file, body.content);
      } catch (e) {
        throw new AdminError(400, `cannot save ${body.file_path}: ${reason(e)}`);
      }
      call.ctx.logger.info({ file }, 'admin: file saved');
      return ok({ message: `saved ${body.file_path} (${Buffer.byteLength(body.content)} bytes)` });
    },
  },
];
