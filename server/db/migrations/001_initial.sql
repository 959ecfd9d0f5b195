-- Initial schema. Enumerations are text + CHECK (readable in SQL, easy to extend in a later
-- migration); every list filter and sort of the API has an index so lists stay fast at
-- 100k students, 10k files and 1M pages.

-- Reference data ---------------------------------------------------------------------------

CREATE TABLE countries (
  iso_code     text PRIMARY KEY CHECK (iso_code ~ '^[A-Z]{2}$'),
  display_name text NOT NULL
);
CREATE INDEX countries_display_name_idx ON countries (lower(display_name));

CREATE TABLE courses (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name           text NOT NULL,
  version        text NOT NULL DEFAULT '1',
  next_course_id uuid REFERENCES courses (id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name, version)
);

CREATE TABLE lessons (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  course_id      uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  number         integer NOT NULL CHECK (number > 0),
  name           text NOT NULL,
  next_lesson_id uuid REFERENCES lessons (id) ON DELETE SET NULL,
  UNIQUE (course_id, number)
);

CREATE TABLE page_templates (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lesson_id   uuid NOT NULL REFERENCES lessons (id) ON DELETE CASCADE,
  page_number integer NOT NULL CHECK (page_number > 0),
  name        text NOT NULL,
  code_id     text NOT NULL UNIQUE,
  UNIQUE (lesson_id, page_number)
);

-- Service centers and their people ---------------------------------------------------------

CREATE TABLE service_centers (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  location    text NOT NULL DEFAULT '',
  country_iso text NOT NULL REFERENCES countries (iso_code),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX service_centers_created_at_idx ON service_centers (created_at DESC, id);
CREATE INDEX service_centers_country_idx ON service_centers (country_iso);

CREATE TABLE recruiting_points (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_center_id uuid NOT NULL REFERENCES service_centers (id) ON DELETE CASCADE,
  name              text NOT NULL,
  location          text NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recruiting_points_service_center_idx ON recruiting_points (service_center_id, name);

CREATE TABLE recruiters (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_center_id uuid NOT NULL REFERENCES service_centers (id) ON DELETE CASCADE,
  name              text NOT NULL,
  contact_info      text NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recruiters_service_center_idx ON recruiters (service_center_id, name);

CREATE TABLE contact_persons (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_center_id uuid NOT NULL REFERENCES service_centers (id) ON DELETE CASCADE,
  name              text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_persons_service_center_idx ON contact_persons (service_center_id, name);

-- Congregations, users and sessions --------------------------------------------------------

CREATE TABLE congregations (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Spec rule: longer than 5 characters, exactly one space, not in the first two positions.
  wbs_code     text NOT NULL UNIQUE
               CHECK (length(wbs_code) > 5 AND wbs_code ~ '^[^ ]{2}[^ ]* [^ ]*$'),
  display_name text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX congregations_created_at_idx ON congregations (created_at DESC, id);
CREATE INDEX congregations_wbs_code_lower_idx ON congregations (lower(wbs_code) text_pattern_ops);

CREATE TABLE users (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email           text NOT NULL UNIQUE CHECK (email = lower(email) AND email <> ''),
  role            text NOT NULL DEFAULT 'standard_user'
                  CHECK (role IN ('scanning_admin', 'study_helper_coordinator', 'standard_user')),
  congregation_id uuid REFERENCES congregations (id) ON DELETE SET NULL,
  is_admin        boolean NOT NULL DEFAULT false,
  -- Only for accounts of the embedded sign-in provider (scrypt); null with an external issuer.
  password_hash   text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_congregation_idx ON users (congregation_id);

CREATE TABLE sessions (
  -- sha256 of the cookie token: a leaked sessions table cannot be replayed as cookies.
  id                     text PRIMARY KEY,
  user_id                uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  acting_congregation_id uuid REFERENCES congregations (id) ON DELETE SET NULL,
  expires_at             timestamptz NOT NULL,
  created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- PKCE and state of sign-ins in flight (kept in the database so any process can finish them).
CREATE TABLE login_states (
  state         text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce         text NOT NULL,
  return_to     text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_states_created_at_idx ON login_states (created_at);

CREATE TABLE study_helpers (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  congregation_id uuid NOT NULL REFERENCES congregations (id) ON DELETE CASCADE,
  name            text NOT NULL,
  email           text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_active_at  timestamptz
);
CREATE INDEX study_helpers_congregation_idx ON study_helpers (congregation_id, name);
CREATE INDEX study_helpers_name_idx ON study_helpers (lower(name) text_pattern_ops);

-- Students ---------------------------------------------------------------------------------

CREATE SEQUENCE student_human_id_seq START WITH 1001;

CREATE TABLE students (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  human_id                 bigint NOT NULL UNIQUE DEFAULT nextval('student_human_id_seq'),
  congregation_id          uuid REFERENCES congregations (id) ON DELETE SET NULL,
  study_helper_id          uuid REFERENCES study_helpers (id) ON DELETE SET NULL,
  country_iso              text REFERENCES countries (iso_code),
  service_center_id        uuid REFERENCES service_centers (id) ON DELETE SET NULL,
  recruiter_id             uuid REFERENCES recruiters (id) ON DELETE SET NULL,
  recruiting_point_id      uuid REFERENCES recruiting_points (id) ON DELETE SET NULL,
  attributes               jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(attributes) = 'object'),
  last_completed_lesson_id uuid REFERENCES lessons (id) ON DELETE SET NULL,
  created_at               timestamptz NOT NULL DEFAULT now(),
  last_active_at           timestamptz
);
ALTER SEQUENCE student_human_id_seq OWNED BY students.human_id;
-- "Student ID" search types the first digits of human_id.
CREATE INDEX students_human_id_text_idx ON students ((human_id::text) text_pattern_ops);
CREATE INDEX students_created_at_idx ON students (created_at DESC, id);
CREATE INDEX students_congregation_idx ON students (congregation_id, created_at DESC);
CREATE INDEX students_study_helper_idx ON students (study_helper_id, created_at DESC);
CREATE INDEX students_country_idx ON students (country_iso, created_at DESC);
CREATE INDEX students_service_center_idx ON students (service_center_id);
CREATE INDEX students_recruiter_idx ON students (recruiter_id);
CREATE INDEX students_recruiting_point_idx ON students (recruiting_point_id);
CREATE INDEX students_name_idx ON students (lower(attributes ->> 'name'));

-- Files (scanned PDFs from service centers) ------------------------------------------------

CREATE TABLE files (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name                     text NOT NULL,
  sha256                   text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  blob_key                 text NOT NULL,
  size_bytes               bigint NOT NULL CHECK (size_bytes >= 0),
  page_count               integer CHECK (page_count >= 0),
  answer_sheet_page_length smallint NOT NULL DEFAULT 0 CHECK (answer_sheet_page_length IN (0, 1, 2)),
  scanned_at               timestamptz,
  uploaded_at              timestamptz NOT NULL DEFAULT now(),
  process_status           text NOT NULL DEFAULT 'pending'
                           CHECK (process_status IN ('pending', 'success', 'failed')),
  failure_reason           text,
  file_status              text CHECK (file_status IN ('grading', 'downloaded', 'archived')),
  grading_complete         boolean NOT NULL DEFAULT false,
  printed                  boolean NOT NULL DEFAULT false,
  return_prepped           boolean NOT NULL DEFAULT false,
  service_center_id        uuid REFERENCES service_centers (id) ON DELETE SET NULL,
  recruiting_point_id      uuid REFERENCES recruiting_points (id) ON DELETE SET NULL,
  recruiter_id             uuid REFERENCES recruiters (id) ON DELETE SET NULL,
  contact_person_id        uuid REFERENCES contact_persons (id) ON DELETE SET NULL,
  cover_page_id            uuid,
  sent_at                  timestamptz,
  uploaded_by              uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_created_at_idx ON files (created_at DESC, id);
CREATE INDEX files_uploaded_at_idx ON files (uploaded_at DESC, id);
CREATE INDEX files_name_idx ON files (lower(name));
CREATE INDEX files_state_idx ON files (process_status, file_status, grading_complete, printed, created_at DESC);
CREATE INDEX files_file_status_idx ON files (file_status, created_at DESC);
CREATE INDEX files_service_center_idx ON files (service_center_id, created_at DESC);
CREATE INDEX files_recruiting_point_idx ON files (recruiting_point_id);
CREATE INDEX files_recruiter_idx ON files (recruiter_id);
CREATE INDEX files_contact_person_idx ON files (contact_person_id);

CREATE TABLE file_congregations (
  file_id         uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  congregation_id uuid NOT NULL REFERENCES congregations (id) ON DELETE CASCADE,
  status          text NOT NULL DEFAULT 'unprinted'
                  CHECK (status IN ('unprinted', 'grading', 'partially_graded', 'graded', 'returned')),
  printed_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (file_id, congregation_id)
);
CREATE INDEX file_congregations_congregation_idx ON file_congregations (congregation_id, status, created_at DESC);

CREATE TABLE answer_sheets (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_id            uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  sequence           integer NOT NULL CHECK (sequence >= 0),
  student_id         uuid REFERENCES students (id) ON DELETE SET NULL,
  lesson_id          uuid REFERENCES lessons (id) ON DELETE SET NULL,
  assigned_group     uuid REFERENCES congregations (id) ON DELETE SET NULL,
  graded             boolean NOT NULL DEFAULT false,
  is_baptism_request boolean NOT NULL DEFAULT false,
  duplicate_of       uuid REFERENCES answer_sheets (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (file_id, sequence)
);
CREATE INDEX answer_sheets_student_idx ON answer_sheets (student_id, created_at DESC);
CREATE INDEX answer_sheets_assigned_group_idx ON answer_sheets (assigned_group, graded, created_at DESC);
CREATE INDEX answer_sheets_file_graded_idx ON answer_sheets (file_id, graded);
CREATE INDEX answer_sheets_lesson_idx ON answer_sheets (lesson_id);
CREATE INDEX answer_sheets_duplicate_of_idx ON answer_sheets (duplicate_of) WHERE duplicate_of IS NOT NULL;

CREATE TABLE pages (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_id             uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  page_number         integer NOT NULL CHECK (page_number > 0),
  answer_sheet_id     uuid REFERENCES answer_sheets (id) ON DELETE SET NULL,
  template_id         uuid REFERENCES page_templates (id) ON DELETE SET NULL,
  ignored             boolean NOT NULL DEFAULT false,
  blank               boolean NOT NULL DEFAULT false,
  rotation            integer NOT NULL DEFAULT 0 CHECK (rotation IN (0, 90, 180, 270)),
  code_prefix         text CHECK (code_prefix IN ('t', 's', 'p', 'c')),
  code_id             text,
  unrecognized_reason text,
  image_blob_key      text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (file_id, page_number)
);
CREATE INDEX pages_answer_sheet_idx ON pages (answer_sheet_id, page_number);
CREATE INDEX pages_template_idx ON pages (template_id);
CREATE INDEX pages_code_idx ON pages (code_id) WHERE code_id IS NOT NULL;

ALTER TABLE files
  ADD CONSTRAINT files_cover_page_id_fkey FOREIGN KEY (cover_page_id) REFERENCES pages (id) ON DELETE SET NULL;

-- Every code the product prints; the id is what the QR code and the typed text carry.
CREATE TABLE printed_codes (
  code_id    text PRIMARY KEY CHECK (code_id ~ '^[A-Z0-9]{4,16}$'),
  prefix     text NOT NULL CHECK (prefix IN ('t', 's', 'p', 'c')),
  target_id  uuid NOT NULL,
  student_id uuid REFERENCES students (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX printed_codes_target_idx ON printed_codes (prefix, target_id);
CREATE INDEX printed_codes_student_idx ON printed_codes (student_id) WHERE student_id IS NOT NULL;

-- Graded scans coming back from congregations ----------------------------------------------

CREATE TABLE feedback_uploads (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  congregation_id uuid NOT NULL REFERENCES congregations (id) ON DELETE CASCADE,
  study_helper_id uuid REFERENCES study_helpers (id) ON DELETE SET NULL,
  is_intro        boolean NOT NULL DEFAULT false,
  blob_key        text NOT NULL,
  sha256          text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  process_status  text NOT NULL DEFAULT 'pending'
                  CHECK (process_status IN ('pending', 'success', 'failed')),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_uploads_congregation_idx ON feedback_uploads (congregation_id, created_at DESC);
CREATE INDEX feedback_uploads_created_at_idx ON feedback_uploads (created_at DESC, id);
CREATE INDEX feedback_uploads_sha256_idx ON feedback_uploads (sha256);

CREATE TABLE feedback (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  page_id        uuid NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  upload_id      uuid NOT NULL REFERENCES feedback_uploads (id) ON DELETE CASCADE,
  front_blob_key text NOT NULL,
  back_blob_key  text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_page_idx ON feedback (page_id, created_at DESC);
CREATE INDEX feedback_upload_idx ON feedback (upload_id);

CREATE TABLE distributed_files (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_id         uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  congregation_id uuid NOT NULL REFERENCES congregations (id) ON DELETE CASCADE,
  blob_key        text,
  page_count      integer NOT NULL DEFAULT 0 CHECK (page_count >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  downloaded_at   timestamptz
);
CREATE INDEX distributed_files_congregation_idx ON distributed_files (congregation_id, created_at DESC);
CREATE INDEX distributed_files_file_idx ON distributed_files (file_id, congregation_id);

CREATE TABLE baptism_requests (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  student_id      uuid NOT NULL UNIQUE REFERENCES students (id) ON DELETE CASCADE,
  answer_sheet_id uuid REFERENCES answer_sheets (id) ON DELETE SET NULL,
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'waiting_on_recruiter', 'waiting_on_service_center', 'missing_info', 'completed')),
  requested_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX baptism_requests_requested_at_idx ON baptism_requests (requested_at DESC, id);
CREATE INDEX baptism_requests_status_idx ON baptism_requests (status, requested_at DESC);
CREATE INDEX baptism_requests_answer_sheet_idx ON baptism_requests (answer_sheet_id);

-- Progress of background jobs, streamed to the web app over /api/progress.
CREATE TABLE job_progress (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_name text NOT NULL,
  run_id     text NOT NULL,
  status     text NOT NULL DEFAULT 'pending',
  completed  integer NOT NULL DEFAULT 0 CHECK (completed >= 0),
  count      integer NOT NULL DEFAULT 0 CHECK (count >= 0),
  failed     integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_name, run_id)
);

-- Small facts about this installation (e.g. when the demo data was created).
CREATE TABLE app_settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
