-- Foundation: transcriptions, threads and their messages, runs, clinical notes with versions,
-- the outbox of events for outbound webhooks, and the append-only audit log.

CREATE TABLE transcriptions (
  id                  uuid PRIMARY KEY,
  group_id            text NOT NULL,
  user_id             text NOT NULL,
  doctor_id           text NOT NULL,
  patient_id          text,
  duration_seconds    double precision NOT NULL CHECK (duration_seconds >= 0),
  language_used       text NOT NULL,
  original_transcript text NOT NULL,
  correlation_id      text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transcriptions_group_idx ON transcriptions (group_id, created_at DESC);

CREATE TABLE threads (
  id          uuid PRIMARY KEY,
  group_id    text NOT NULL,
  user_id     text NOT NULL,
  doctor_id   text NOT NULL,
  patient_id  text,
  status      text NOT NULL DEFAULT 'active',
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  correlation_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX threads_group_idx ON threads (group_id, created_at DESC);

CREATE TABLE runs (
  id           uuid PRIMARY KEY,
  seq          bigserial NOT NULL,
  thread_id    uuid NOT NULL REFERENCES threads (id),
  group_id     text NOT NULL,
  user_id      text NOT NULL,
  doctor_id    text NOT NULL,
  patient_id   text,
  kind         text NOT NULL CHECK (kind IN ('chat', 'extraction')),
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  input        jsonb NOT NULL,
  config       jsonb NOT NULL DEFAULT '{}'::jsonb,
  output       jsonb,
  error        jsonb,
  usage        jsonb,
  attempts     integer NOT NULL DEFAULT 0,
  correlation_id text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  ended_at     timestamptz
);
CREATE INDEX runs_thread_idx ON runs (thread_id, seq DESC);

-- Messages of a thread in order: the input messages of each run, then the assistant's reply.
CREATE TABLE thread_messages (
  id         bigserial PRIMARY KEY,
  thread_id  uuid NOT NULL REFERENCES threads (id),
  run_id     uuid REFERENCES runs (id),
  role       text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
  content    text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX thread_messages_thread_idx ON thread_messages (thread_id, id);

CREATE TABLE clinical_notes (
  id                   uuid PRIMARY KEY,
  group_id             text NOT NULL,
  user_id              text NOT NULL,
  doctor_id            text,
  patient_id           text,
  transcription_id     uuid REFERENCES transcriptions (id),
  template             text NOT NULL,
  ai_generated_content jsonb NOT NULL,
  feedback             text,
  report_thread_id     uuid REFERENCES threads (id),
  report_run_id        text[] NOT NULL DEFAULT '{}',
  version              integer NOT NULL DEFAULT 1,
  correlation_id       text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clinical_notes_group_idx ON clinical_notes (group_id, created_at DESC);

-- Immutable: one row for every saved state of a note, version 1 being its creation.
CREATE TABLE clinical_note_versions (
  note_id        uuid NOT NULL REFERENCES clinical_notes (id),
  version        integer NOT NULL,
  snapshot       jsonb NOT NULL,
  changed_fields text[] NOT NULL,
  user_id        text NOT NULL,
  doctor_id      text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (note_id, version)
);

-- Events for outbound webhooks, written in the same transaction as the change they announce.
CREATE TABLE outbox (
  id            uuid PRIMARY KEY,
  type          text NOT NULL,
  group_id      text,
  data          jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE dispatched_at IS NULL;

-- Who did what, when, with which outcome. Ids only: never transcripts, notes or other PHI.
CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  request_id  text,
  user_id     text,
  group_id    text,
  doctor      text,
  patient     text,
  operation   text NOT NULL,
  resource_id text,
  status      integer NOT NULL
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
