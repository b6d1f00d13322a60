// A SQLite database is code as well as rows: a view runs its stored SELECT, with any function the
// sqlite3 shell has (sqlar_uncompress, zipfile …), when a query names it; a trigger, a virtual
// table and a generated column run stored SQL too. SQLite keeps each definition as the text of its
// CREATE statement (its first keywords in capitals, one space after them) in the file itself, or in
// its write-ahead log: this reads that text out of the file's bytes, UTF-8 or UTF-16.

/** The stored definitions that run SQL of the database's own when a query reads it. */
const STORED_CODE =
  /CREATE (?:VIEW|TRIGGER|VIRTUAL TABLE)\b|\bGENERATED\s+ALWAYS\b|CREATE TABLE[^\0]*?\bAS\s*\(/i;

/**
 * The kind of stored SQL the database text `text` holds that a query would run (a view, a
 * trigger, a virtual table, a generated column), or null when it holds only tables and indexes.
 */
export function storedSqlIn(text: string): string | null {
  // UTF-16 text has a NUL beside each ASCII letter.
  const match = STORED_CODE.exec(text) ?? STORED_CODE.exec(text.replaceAll('\0', ''));
  return match === null ? null : match[0];
}
