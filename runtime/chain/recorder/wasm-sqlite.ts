import type { Database as WasmDatabase } from 'node-sqlite3-wasm';
import type { Database, Row, SqlValue, SqliteDriver } from './sqlite-driver.js';

type Library = typeof import('node-sqlite3-wasm');

/**
 * node-sqlite3-wasm (SQLite compiled to WebAssembly, its file system layer on node:fs): runs on every
 * Node line, loaded only where `node:sqlite` is missing (Node 20, early 22).
 */
export async function wasmSqlite(): Promise<SqliteDriver> {
  // a CommonJS module without named exports Node can detect: its exports are the default
  const { Database: Opened } = ((await import('node-sqlite3-wasm')) as unknown as { default: Library }).default;
  return { name: 'node-sqlite3-wasm', lock: 'folder', open: (file, { readOnly }) => new WasmSqlite(new Opened(file, { readOnly, fileMustExist: readOnly })) };
}

class WasmSqlite implements Database {
  readonly library = 'node-sqlite3-wasm';
  constructor(private readonly db: WasmDatabase) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    return (this.db.get(sql, params) as Row | null) ?? undefined;
  }

  all(sql: string, params: SqlValue[] = []): Row[] {
    return this.db.all(sql, params) as Row[];
  }

  runEach(sql: string, rows: Iterable<SqlValue[]>): void {
    // prepared per call: a statement whose step failed (a lock) cannot be bound again in this library
    const statement = this.db.prepare(sql);
    try {
      for (const values of rows) statement.run(values);
    } finally {
      statement.finalize();
    }
  }

  close(): void {
    this.db.close();
  }
}
