-- The client address of each started sign-in and each failed password, so both can be limited
-- per address (server/auth/sign-in-throttle.ts): an attacker's failures slow that attacker,
-- not the account's owner signing in from elsewhere.
ALTER TABLE login_states ADD COLUMN client_address text NOT NULL DEFAULT '';
CREATE INDEX login_states_client_address_idx ON login_states (client_address, created_at);

ALTER TABLE sign_in_failures ADD COLUMN client_address text NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_client_address_idx ON sign_in_failures (client_address, failed_at);
