-- ICD-10-CM terminology (imported from the CMS release), codification runs, and the shared
-- counters of the codify rate limit.

-- One row per code, undotted (E119). Billable codes come from the CMS code-descriptions file;
-- 3-character categories from the categories CSV are non-billable header rows.
CREATE TABLE icd10_codes (
  code        text PRIMARY KEY,
  description text NOT NULL,
  billable    boolean NOT NULL,
  is_header   boolean NOT NULL DEFAULT false,
  section     text,
  chapter     text
);

-- Every import that changed the table: what was loaded, so the same content again is a no-op.
CREATE TABLE icd10_imports (
  id                bigserial PRIMARY KEY,
  codes_sha256      text NOT NULL,
  categories_sha256 text,
  source            text NOT NULL,
  code_count        integer NOT NULL,
  header_count      integer NOT NULL,
  duration_ms       integer NOT NULL,
  imported_at       timestamptz NOT NULL DEFAULT now()
);

-- A codification request and its outcome. input_text holds the note (and PDF text) only while
-- the job waits or runs; it is set to NULL as soon as the run ends.
CREATE TABLE codify_runs (
  id          uuid PRIMARY KEY,
  group_id    text NOT NULL,
  user_id     text NOT NULL,
  doctor_id   text NOT NULL,
  patient_id  text,
  model       text NOT NULL CHECK (model IN ('fast', 'balanced', 'high-quality')),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  input_text  text,
  note_bytes  integer NOT NULL,
  pdf_bytes   integer,
  pdf_pages   integer,
  result      jsonb,
  error       jsonb,
  engine      text,
  engine_ms   double precision,
  attempts    integer NOT NULL DEFAULT 0,
  correlation_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  started_at  timestamptz,
  ended_at    timestamptz
);
CREATE INDEX codify_runs_group_idx ON codify_runs (group_id, created_at DESC);

-- Fixed-window hit counters shared by every process (express-rate-limit store).
CREATE TABLE rate_limit_hits (
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_hits_window_idx ON rate_limit_hits (window_start);
