import type Database from "better-sqlite3";
import type { FileInput, IndexDelta } from "../store.js";
import { indexDbRow, indexSeq } from "./index-queries.js";
import { deleteKnowledge, writeKnowledge } from "./knowledge-queries.js";
import { ROW_ID_STRIDE, buildTables, type BuildTables } from "./migrations.js";
import { copyExtraction, insertExtraction } from "./symbol-queries.js";
import { deleteTerms, hasTermTables, insertTerms } from "./term-queries.js";

/**
 * Writes of an index's files: a build's batches (file row, text, ranking terms, and symbols extracted or copied from
 * an older index), and the in-place update of a ready index.
 */

/** Inserts one file row (with a given id, or the next one) and returns its id. */
function fileInserter(db: Database.Database): (indexId: string, f: FileInput, id: number | null) => number {
  const insert = db.prepare(
    `INSERT INTO repo_file (id, repo_index_id, path, language, size_bytes, line_count, content_hash, is_binary,
       is_generated, is_vendored, generated_reason, is_secret_suspect, secret_reasons, has_instruction_like_text,
       skip_reason, skip_detail, symbol_status, symbol_extractor, symbol_detail, mtime_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (indexId, f, id) =>
    Number(
      insert.run(
        id,
        indexId,
        f.path,
        f.language,
        f.sizeBytes,
        f.lineCount,
        f.contentHash,
        f.isBinary ? 1 : 0,
        f.isGenerated ? 1 : 0,
        f.isVendored ? 1 : 0,
        f.generatedReason,
        f.isSecretSuspect ? 1 : 0,
        JSON.stringify(f.secretReasons),
        f.hasInstructionLikeText ? 1 : 0,
        f.skipReason,
        f.skipDetail,
        f.symbolStatus ?? f.extraction?.status ?? null,
        f.symbolExtractor ?? f.extraction?.extractor ?? null,
        f.symbolDetail ?? f.extraction?.detail ?? null,
        f.mtimeMs,
      ).lastInsertRowid,
    );
}

/** Writes a batch of a build's files into its tables, in one (nested) transaction. */
export function writeFiles(db: Database.Database, indexId: string, tables: BuildTables, files: FileInput[]): void {
  const insertFile = fileInserter(db);
  const insertContent = db.prepare(`INSERT INTO ${tables.content} (rowid, content) VALUES (?, ?)`);
  const writeExtraction = insertExtraction(db, tables);
  const writeTerms = insertTerms(db, tables);
  const copiers = new Map<string, (oldFileId: number, newFileId: number) => number>();
  const copierFor = (fromIndexId: string) => {
    let c = copiers.get(fromIndexId);
    if (!c) {
      c = copyExtraction(db, buildTables(indexSeq(db, fromIndexId)), tables);
      copiers.set(fromIndexId, c);
    }
    return c;
  };
  db.transaction(() => {
    for (const f of files) {
      const id = insertFile(indexId, f, null);
      if (f.content !== null) insertContent.run(id, f.content);
      if (f.terms) writeTerms(id, f.terms);
      if (f.extraction) writeExtraction(id, f.extraction);
      else if (f.reuse) copierFor(f.reuse.indexId)(f.reuse.fileId, id);
    }
  })();
}

/**
 * Updates a ready index in place, in one transaction: the rows of removed and changed files go, changed and new
 * files come in (a changed file keeps its id, so its path-order position), knowledge is replaced when given, and
 * the index row takes the new commit and version. Readers see the old index or the new one, never a mix.
 */
/** Returns the ids of the rows it dropped and of those it wrote (an id may be in both: a changed file keeps its id). */
export function applyDelta(db: Database.Database, indexId: string, d: IndexDelta): { dropped: number[]; written: number[] } {
  const index = indexDbRow(db, indexId);
  if (!index || index.status !== "ready") throw new Error(`index ${indexId} is not ready`);
  const tables = buildTables(index.seq);
  const findId = db.prepare("SELECT id FROM repo_file WHERE repo_index_id = ? AND path = ?");
  const dropContent = db.prepare(`DELETE FROM ${tables.content} WHERE rowid = ?`);
  const dropSymbols = db.prepare(`DELETE FROM ${tables.symbols} WHERE id BETWEEN ? AND ?`);
  const dropReferences = db.prepare(`DELETE FROM ${tables.references} WHERE id BETWEEN ? AND ?`);
  const dropFile = db.prepare("DELETE FROM repo_file WHERE id = ?");
  const insertFile = fileInserter(db);
  const insertContent = db.prepare(`INSERT INTO ${tables.content} (rowid, content) VALUES (?, ?)`);
  const writeExtraction = insertExtraction(db, tables);
  // An index built before ranking terms existed is updated without them (rankFiles tells its caller to rebuild).
  const terms = hasTermTables(db, tables) ? { write: insertTerms(db, tables), drop: deleteTerms(db, tables) } : null;
  const dropped: number[] = [];
  const written: number[] = [];
  db.transaction(() => {
    const kept = new Map<string, number>();
    for (const path of [...d.remove, ...d.upsert.map((f) => f.path)]) {
      const row = findId.get(indexId, path) as { id: number } | undefined;
      if (!row) continue;
      dropContent.run(row.id);
      terms?.drop(row.id);
      dropSymbols.run(row.id * ROW_ID_STRIDE, (row.id + 1) * ROW_ID_STRIDE - 1);
      dropReferences.run(row.id * ROW_ID_STRIDE, (row.id + 1) * ROW_ID_STRIDE - 1);
      dropFile.run(row.id);
      dropped.push(row.id);
      kept.set(path, row.id);
    }
    // Files keeping their id first: a new file takes the next free id, which may be a kept one's until it is back.
    const ordered = [...d.upsert.filter((f) => kept.has(f.path)), ...d.upsert.filter((f) => !kept.has(f.path))];
    for (const f of ordered) {
      const id = insertFile(indexId, f, kept.get(f.path) ?? null);
      written.push(id);
      if (f.content !== null) insertContent.run(id, f.content);
      if (f.terms && terms) terms.write(id, f.terms);
      if (f.extraction) writeExtraction(id, f.extraction);
    }
    if (d.knowledge) {
      deleteKnowledge(db, indexId);
      writeKnowledge(db, indexId, d.knowledge);
    }
    db
      .prepare(
        "UPDATE repo_index SET base_commit = ?, branch = ?, dirty = ?, index_version = ?, finished_at = ?, stats_json = ? WHERE id = ?",
      )
      .run(d.meta.baseCommit, d.meta.branch, d.meta.dirty ? 1 : 0, d.indexVersion, new Date().toISOString(), JSON.stringify(d.stats), indexId);
  })();
  return { dropped, written };
}
