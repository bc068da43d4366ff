import { fileRowOf, type DbValues, type FileDbRow as SharedFileDbRow } from "../db-rows.js";
import type { FileRow } from "../store.js";

/** How SQLite keeps the columns the stores type differently: flags as 0/1, JSON as text, times as ISO text. */
export interface SqliteTypes {
  flag: number;
  json: string;
  time: string;
}

export const SQLITE_VALUES: DbValues<SqliteTypes> = {
  flag: (v) => v === 1,
  json: <T>(v: string) => JSON.parse(v) as T,
  time: (v) => v,
};

export type FileDbRow = SharedFileDbRow<SqliteTypes>;

export function toFileRow(r: FileDbRow): FileRow {
  return fileRowOf(r, SQLITE_VALUES);
}

export { FILE_COLUMNS } from "../db-rows.js";
export { prefixUpperBound } from "../row-rules.js";
