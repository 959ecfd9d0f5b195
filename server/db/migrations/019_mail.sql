-- People hear about work without signing in (DESIGN §4): a congregation's e-mail addresses (its
-- Emails tile), every message the portal sends or keeps (the mail record admins read), and each
-- user's choice to hear of their uploads' reports.

CREATE TABLE congregation_emails (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  congregation_id uuid NOT NULL REFERENCES congregations (id) ON DELETE CASCADE,
  email           text NOT NULL CHECK (email = lower(email) AND email <> ''),
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (congregation_id, email)
);

-- One row per message and address. `message_key` names the event and the address, so telling
-- twice (a job run again after a crash, a restart) adds nothing. The mail job claims a row by
-- setting claimed_until; a claim that ran out (its worker died) is taken again.
CREATE TABLE mail_messages (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  message_key     text NOT NULL UNIQUE,
  to_address      text NOT NULL,
  subject         text NOT NULL,
  text_body       text NOT NULL,
  html_body       text NOT NULL,
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'not_sent')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX mail_messages_due_idx ON mail_messages (next_attempt_at) WHERE status IN ('queued', 'sending');
CREATE INDEX mail_messages_created_at_idx ON mail_messages (created_at DESC, id);

ALTER TABLE users ADD COLUMN email_upload_reports boolean NOT NULL DEFAULT true;
