-- A student belongs to a congregation (DESIGN §4, "Identity"). Until now assigning a student's
-- sheets left the student without one, so its next sheets were not assigned on arrival and its
-- congregation's coordinator did not see it. Students with assigned sheets and no congregation
-- take the congregation of their latest assigned sheet (newest first as the student's answer
-- sheets are ordered: created_at, then id).
UPDATE students s SET congregation_id = latest.assigned_group
FROM (
  SELECT DISTINCT ON (a.student_id) a.student_id, a.assigned_group
  FROM answer_sheets a
  WHERE a.student_id IS NOT NULL AND a.assigned_group IS NOT NULL
  ORDER BY a.student_id, a.created_at DESC, a.id DESC
) latest
WHERE s.id = latest.student_id AND s.congregation_id IS NULL;
