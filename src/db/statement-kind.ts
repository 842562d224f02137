// Which SQL statements only read: a request's reads may run before the rate limiter's verdict,
// anything that may write waits for it (db/request-scope.ts). Anything not recognised as a read
// is taken as a write, so a mistake here can only make a read wait, never let a write through.

const READ_KEYWORDS = new Set(["select", "values"]);
const STATEMENT_KEYWORDS = new Set(["select", "values", "insert", "update", "delete", "replace"]);

/**
 * True only for one SELECT or VALUES statement, optionally behind a `WITH` clause (SQLite's
 * common table expressions can only select, so `WITH … SELECT` reads). `INSERT … RETURNING`,
 * `WITH … INSERT`, `PRAGMA`, DDL and several statements in one text are writes. The main
 * statement is the first statement keyword outside parentheses, string literals, quoted names and
 * comments, which skips the CTEs' own SELECTs.
 */
export function onlyReads(sql: string): boolean {
  let depth = 0;
  let first: string | null = null;
  let main: string | null = null;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (ch === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      let end = i + 1;
      // A quote inside is written twice ('it''s'), which this loop reads as two literals in a row.
      while (end < sql.length && sql[end] !== close) end += 1;
      if (end >= sql.length) return false;
      i = end + 1;
    } else if (ch === "(") {
      depth += 1;
      i += 1;
    } else if (ch === ")") {
      depth -= 1;
      i += 1;
    } else if (ch === ";") {
      // Only a trailing semicolon: a second statement in the same text is not looked into.
      if (
        sql
          .slice(i + 1)
          .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, "")
          .trim() !== ""
      )
        return false;
      break;
    } else if (/[A-Za-z_]/.test(ch)) {
      let end = i + 1;
      while (end < sql.length && /[A-Za-z0-9_$]/.test(sql[end])) end += 1;
      const word = sql.slice(i, end).toLowerCase();
      if (depth === 0) {
        first ??= word;
        if (main === null && STATEMENT_KEYWORDS.has(word)) main = word;
      }
      i = end;
    } else {
      i += 1;
    }
  }
  if (first !== "with" && first !== main) return false;
  return main !== null && READ_KEYWORDS.has(main);
}
