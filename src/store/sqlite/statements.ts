import type Database from "better-sqlite3";

/** Statements prepared per connection, by SQL text (a WeakMap: they go when their connection goes). */
const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Whether the store has a table (or virtual table) of this name: a build's optional tables, an older build's missing ones. */
export function tableExists(db: Database.Database, name: string): boolean {
  return stmt(db, "SELECT 1 FROM sqlite_master WHERE name = ?").get(name) !== undefined;
}

/** Prepared once per SQL text: queries run the same few statements thousands of times. */
export function stmt(db: Database.Database, sql: string): Database.Statement {
  let statements = prepared.get(db);
  if (!statements) {
    statements = new Map();
    prepared.set(db, statements);
  }
  let s = statements.get(sql);
  if (!s) {
    s = db.prepare(sql);
    statements.set(sql, s);
  }
  return s;
}
