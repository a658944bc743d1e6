import type BetterSqlite3 from 'better-sqlite3';
import { MemoryDecodeError } from 'conversation-memory';
import { type KnowledgeEntry, readReferenceKnowledgeRecord } from 'conversation-memory/knowledge';
import { describeValue } from 'conversation-memory/store-kit';
import { either as E } from 'fp-ts';

/** The reference's columns (selectools' `SQLiteKnowledgeStore`), in its order. */
const COLUMNS = [
  'id',
  'content',
  'category',
  'importance',
  'persistent',
  'ttl_days',
  'created_at',
  'updated_at',
  'metadata',
] as const;

/** How many problems are listed before the reader stops looking. */
const MAX_PROBLEMS = 1000;

/**
 * A `knowledge` row as the reference's `_row_to_entry` reads it: `persistent` an integer read as
 * a boolean (`bool(row[4])`), `metadata` JSON text (empty or NULL: `{}`); the rest as stored.
 */
const recordOf = (row: Record<string, unknown>): { record?: unknown; problem?: string } => {
  const { persistent, metadata } = row;
  let parsed: unknown = null;
  if (typeof metadata === 'string' && metadata !== '') {
    try {
      parsed = JSON.parse(metadata);
    } catch {
      return { problem: `metadata is not JSON text: ${describeValue(metadata)}` };
    }
  } else if (metadata !== null && metadata !== undefined && metadata !== '') {
    return { problem: `metadata must be JSON text, received ${describeValue(metadata)}` };
  }
  return {
    record: {
      ...row,
      persistent:
        typeof persistent === 'number' || typeof persistent === 'bigint'
          ? Number(persistent) !== 0
          : persistent,
      metadata: parsed,
    },
  };
};

/**
 * Reads the reference's `knowledge` table (its entries: `id, content, category, importance,
 * persistent, ttl_days, created_at, updated_at, metadata`) from an open database, in insertion
 * order, each row as `readReferenceKnowledgeRecord` reads a record. A database without the table
 * has no entries; a row that does not read is a problem naming its id.
 *
 * @param db - an open connection
 * @param api - the caller, for the error
 * @returns `Right(entries)` or `Left(MemoryDecodeError)`
 * @example
 * ```ts
 * const read = readSqliteReferenceEntries(db, 'SqliteKnowledgeStore.readReferenceEntries');
 * ```
 */
export const readSqliteReferenceEntries = (
  db: BetterSqlite3.Database,
  api: string,
): E.Either<MemoryDecodeError, readonly KnowledgeEntry[]> => {
  const table = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'knowledge'")
    .get();
  if (table === undefined) return E.right(Object.freeze([]));
  let rows: Record<string, unknown>[];
  try {
    rows = db.prepare(`SELECT ${COLUMNS.join(', ')} FROM knowledge ORDER BY rowid`).all() as Record<
      string,
      unknown
    >[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return E.left(
      new MemoryDecodeError(api, [
        `knowledge: not the reference's table (${reason.slice(0, 200)})`,
      ]),
    );
  }
  const entries: KnowledgeEntry[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, row] of rows.entries()) {
    if (problems.length >= MAX_PROBLEMS) break;
    const place = `knowledge row ${i + 1} (id ${describeValue(row['id'])})`;
    const { record, problem } = recordOf(row);
    if (problem !== undefined) {
      problems.push(`${place}: ${problem}`);
      continue;
    }
    const read = readReferenceKnowledgeRecord(record);
    if ('problems' in read) {
      for (const line of read.problems) problems.push(`${place}: ${line}`);
    } else if (!seen.has(read.entry.id)) {
      // The id is the table's primary key: a repeat cannot happen in a reference file.
      seen.add(read.entry.id);
      entries.push(read.entry);
    }
  }
  return problems.length > 0
    ? E.left(
        new MemoryDecodeError(api, problems, { countComplete: problems.length < MAX_PROBLEMS }),
      )
    : E.right(Object.freeze(entries));
};
