// What the job queue asks of the database itself (pg-boss's own statements go through its
// adapter, queue.ts): the schema its tables go in, and whether they exist yet.
import type { Database } from '../db/database';

/** The schema unqualified names resolve to (public, or a test's own schema). */
export async function currentSchemaName(db: Database): Promise<string> {
  const { schema } = await db.one<{ schema: string }>('SELECT current_schema() AS schema');
  return schema;
}

/** Whether a table of this (schema-qualified) name exists. */
export async function tableExists(db: Database, qualifiedName: string): Promise<boolean> {
  const row = await db.one<{ name: string | null }>(`SELECT to_regclass($1) AS name`, [qualifiedName]);
  return row.name !== null;
}
