-- State of the embedded sign-in provider (interactions, sessions, codes, grants) in the
-- database instead of process memory: sign-ins in flight survive a restart, and several
-- server processes on one PostgreSQL can serve the same sign-in.
CREATE TABLE oidc_provider_records (
  model       text NOT NULL,
  id          text NOT NULL,
  payload     jsonb NOT NULL,
  grant_id    text,
  user_code   text,
  uid         text,
  expires_at  timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_provider_records_grant_idx ON oidc_provider_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_provider_records_uid_idx ON oidc_provider_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_provider_records_user_code_idx ON oidc_provider_records (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_provider_records_expires_idx ON oidc_provider_records (expires_at);
