import type { Database, Row, SqlValue, SqliteDriver } from './sqlite-driver.js';

// What is used of node:sqlite: @types/node follows Node 20, which has none.
interface StatementSync {
  run(...values: SqlValue[]): unknown;
  get(...values: SqlValue[]): unknown;
  all(...values: SqlValue[]): unknown[];
}
interface DatabaseSync {
  /** Node 22.16 and later. */
  readonly isTransaction?: boolean;
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
interface NodeSqlite {
  DatabaseSync: new (file: string, options: { readOnly: boolean }) => DatabaseSync;
}

/**
 * `node:sqlite` where the running Node has it without a flag (22.13 and later): native SQLite, about
 * a third of node-sqlite3-wasm's cost a row. Loading it on Node 22 prints an ExperimentalWarning on
 * every `mock` command that records or reads recordings: that one warning is dropped (the module is
 * loaded synchronously, so nothing else is emitted meanwhile).
 */
export function nativeSqlite(): SqliteDriver | undefined {
  const module = loadQuietly();
  if (module === undefined) return undefined;
  return { name: 'node:sqlite', lock: 'posix', open: (file, { readOnly }) => new NativeDatabase(new module.DatabaseSync(file, { readOnly })) };
}

function loadQuietly(): NodeSqlite | undefined {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning instanceof Error ? warning.message : warning).startsWith('SQLite is an experimental')) (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

class NativeDatabase implements Database {
  readonly library = 'node:sqlite';
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  rollback(): void {
    // isTransaction is newer than the module (Node 22.16): without it, ROLLBACK says whether one was open
    if (this.db.isTransaction === false) return;
    try {
      this.db.exec('ROLLBACK');
    } catch {
      // none was open
    }
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  all(sql: string, params: SqlValue[] = []): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  runEach(sql: string, rows: Iterable<SqlValue[]>): void {
    const statement = this.statement(sql);
    for (const values of rows) statement.run(...values);
  }

  close(): void {
    this.db.close();
  }

  /** Prepared once per text: the writer inserts with one and the reads are a handful. */
  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}
