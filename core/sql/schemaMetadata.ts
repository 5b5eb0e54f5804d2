/**
 * What EvalBench compares for a DDL item: after the query ran, `db.get_metadata()` reflects the
 * database with SQLAlchemy and records, for every table, its columns in order as `{name, type}`
 * (PostgreSQL: the `public` schema only). exact_match then compares the golden and the generated
 * metadata for equality. Nothing else is compared: not indexes, constraints, defaults or data.
 *
 * EvalLens reads the same facts with one query per dialect, run after the query in the same
 * isolation (it sees the query's changes, and they are rolled back with the rest). Its rows are
 * `(table_name, column_name, type)` ordered by table name, then column position, so two schemas are
 * equal exactly when their row lists are equal — as EvalBench's dicts of column lists are.
 *
 * Types are the declared types, upper-cased (SQLite: as written in the DDL; PostgreSQL:
 * `format_type`, e.g. `CHARACTER VARYING(255)`). SQLAlchemy spells some differently (`VARCHAR(255)`);
 * the spelling is the same on both sides of a comparison, so equality is not affected.
 */

const SQLITE_SCHEMA = `SELECT m.name AS table_name, c.name AS column_name, upper(c.type) AS type
FROM sqlite_master AS m JOIN pragma_table_xinfo(m.name) AS c
WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND c.hidden <> 1
ORDER BY m.name, c.cid`;

const POSTGRES_SCHEMA = `SELECT c.relname::text AS table_name, a.attname::text AS column_name, upper(format_type(a.atttypid, a.atttypmod)) AS type
FROM pg_catalog.pg_class AS c
JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum`;

/**
 * The query that reads the schema metadata of a database of `dialect`, or undefined for a dialect
 * EvalLens has none for. MySQL has none on purpose: its DDL items are never run (MySQL commits DDL at
 * once, so the case is an error before any query runs; nl2sqlPreparer.ts).
 */
export function schemaMetadataQuery(dialect: string): string | undefined {
  if (dialect === 'sqlite') return SQLITE_SCHEMA;
  if (dialect === 'postgres') return POSTGRES_SCHEMA;
  return undefined;
}
