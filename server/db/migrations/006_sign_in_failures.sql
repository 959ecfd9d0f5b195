-- Failed sign-ins on the embedded provider, kept for the throttle's window only
-- (server/auth/sign-in-throttle.ts). In the database rather than in memory so every server
-- process counts the same failures.
CREATE TABLE sign_in_failures (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_email_idx ON sign_in_failures (email, failed_at);
CREATE INDEX sign_in_failures_failed_at_idx ON sign_in_failures (failed_at);
