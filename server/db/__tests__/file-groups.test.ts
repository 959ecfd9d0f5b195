// file_groups (migrations 007 and 009) must say exactly what answer_sheets says: which
// congregations have sheets in which files, and how many; and when each file was created. A coordinator's view of the files rests on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../tests/helpers/test-db.js';
import {
  insertAnswerSheet,
  insertCongregation,
  insertFile,
} from '../../../tests/server/support.js';
import type { Database } from '../database.js';

describe('file_groups follows answer_sheets', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.close();
  });

  const kept = () =>
    db.query<{ file_id: string; congregation_id: string; sheets: number; created_at: Date }>(
      'SELECT file_id, congregation_id, sheets, file_created_at AS created_at FROM file_groups ORDER BY file_id, congregation_id',
    );
  const truth = () =>
    db.query<{ file_id: string; congregation_id: string; sheets: number; created_at: Date }>(
      `SELECT a.file_id, a.assigned_group AS congregation_id, count(*)::int AS sheets, f.created_at
       FROM answer_sheets a JOIN files f ON f.id = a.file_id
       WHERE a.assigned_group IS NOT NULL GROUP BY a.file_id, a.assigned_group, f.created_at ORDER BY a.file_id, a.assigned_group`,
    );
  const expectInStep = async () => expect(await kept()).toEqual(await truth());

  it('through adding, assigning, reassigning, unassigning and deleting sheets, files and congregations', async () => {
    const a = await insertCongregation(db, 'AA 10001');
    const b = await insertCongregation(db, 'BB 10002');
    const file1 = await insertFile(db, 'one.pdf');
    const file2 = await insertFile(db, 'two.pdf');

    const sheets = [
      await insertAnswerSheet(db, file1, { assignedGroup: a }),
      await insertAnswerSheet(db, file1, { assignedGroup: a }),
      await insertAnswerSheet(db, file1, { assignedGroup: b }),
      await insertAnswerSheet(db, file1),
      await insertAnswerSheet(db, file2, { assignedGroup: b }),
    ];
    await expectInStep();
    expect((await kept()).map((row) => row.sheets).sort()).toEqual([1, 1, 2]);

    // Assign the unassigned one, move one from a to b, unassign the only b sheet of file 2.
    await db.query('UPDATE answer_sheets SET assigned_group = $2 WHERE id = $1', [sheets[3], a]);
    await db.query('UPDATE answer_sheets SET assigned_group = $2 WHERE id = $1', [sheets[0], b]);
    await db.query('UPDATE answer_sheets SET assigned_group = NULL WHERE id = $1', [sheets[4]]);
    // An update that changes nothing the table follows.
    await db.query('UPDATE answer_sheets SET graded = true WHERE file_id = $1', [file1]);
    await expectInStep();

    // A file's created_at changed (the lists' "newest first" reads it from file_groups).
    await db.query(`UPDATE files SET created_at = created_at - interval '3 days' WHERE id = $1`, [file1]);
    await expectInStep();

    // A bulk assignment of a whole file, as "assign all" does.
    await db.query('UPDATE answer_sheets SET assigned_group = $2 WHERE file_id = $1', [file1, a]);
    await expectInStep();

    await db.query('DELETE FROM answer_sheets WHERE id = $1', [sheets[1]]);
    await expectInStep();

    // A congregation deleted: its sheets become unassigned (ON DELETE SET NULL), its rows go.
    await insertAnswerSheet(db, file2, { assignedGroup: b });
    await db.query('DELETE FROM congregations WHERE id = $1', [b]);
    await expectInStep();

    // A file deleted: its sheets and its rows go with it.
    await db.query('DELETE FROM files WHERE id = $1', [file1]);
    await expectInStep();
    expect(await kept()).toEqual([]);
  });

  it('counts sheets added and removed by concurrent transactions', async () => {
    const c = await insertCongregation(db, 'CC 10003');
    const file = await insertFile(db, 'three.pdf');
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction(
          async (tx) =>
            (
              await tx.one<{ id: string }>(
                'INSERT INTO answer_sheets (file_id, sequence, assigned_group) VALUES ($1, $2, $3) RETURNING id',
                [file, i, c],
              )
            ).id,
        ),
      ),
    );
    await expectInStep();
    await Promise.all(
      ids.map((id) =>
        db.transaction((tx) =>
          tx.query('UPDATE answer_sheets SET assigned_group = NULL WHERE id = $1', [id]),
        ),
      ),
    );
    await expectInStep();
    expect((await kept()).filter((row) => row.file_id === file)).toEqual([]);
  });
});
