// One send of a file (its sent_at, in microseconds, as text) names that send in packet message
// keys: a file taken back and sent again is news again.

/** The send of the file aliased `file`, as an SQL expression. */
export function sendStampSql(file: string): string {
  return `floor(extract(epoch FROM ${file}.sent_at) * 1000000)::bigint::text`;
}
