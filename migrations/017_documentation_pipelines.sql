-- Issue 30: the documentation pipeline owns its state. One row per pipeline (its inbound event),
-- advanced one transition per job: transcribed -> extracting -> coding -> ready (or failed, with
-- the step it failed at). Until now the state lived in inbound_events.pipeline as step keys.
CREATE TABLE documentation_pipelines (
  event_id                uuid PRIMARY KEY REFERENCES inbound_events (id) ON DELETE CASCADE,
  step                    text NOT NULL CHECK (step IN ('transcribed', 'extracting', 'coding', 'ready', 'failed')),
  failed_step             text CHECK (failed_step IN ('transcribed', 'extracting', 'coding')),
  transcription_id        uuid NOT NULL,
  thread_id               uuid,
  run_id                  uuid,
  note_id                 uuid,
  codify_run_id           uuid,
  -- How many times an operator's retry restarted a failed step; the ids of what it starts derive from it.
  generation              integer NOT NULL DEFAULT 0,
  replaced_run_ids        uuid[] NOT NULL DEFAULT '{}',
  replaced_codify_run_ids uuid[] NOT NULL DEFAULT '{}',
  ready_at                timestamptz,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  CHECK ((step = 'failed') = (failed_step IS NOT NULL))
);

-- The previous release's pipelines, finished or in flight, move here. The step is where its
-- recorded keys say it is: an in-flight run or codification carries its continuation (the
-- pipeline-advance job, by this row's id), and its end advances the row from that step.
CREATE FUNCTION pg_temp.as_uuid(v text) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN v::uuid END
$$;

INSERT INTO documentation_pipelines (event_id, step, failed_step, transcription_id, thread_id, run_id, note_id, codify_run_id,
                                     generation, replaced_run_ids, replaced_codify_run_ids, ready_at, created_at, updated_at)
SELECT e.id,
       CASE WHEN e.pipeline ? 'note_ready' THEN 'ready' WHEN e.status = 'failed' THEN 'failed' ELSE s.step END,
       CASE WHEN e.status = 'failed' AND NOT e.pipeline ? 'note_ready' THEN s.step END,
       pg_temp.as_uuid(e.pipeline->>'transcription_id'),
       pg_temp.as_uuid(e.pipeline->>'thread_id'),
       pg_temp.as_uuid(e.pipeline->>'run_id'),
       pg_temp.as_uuid(e.pipeline->>'note_id'),
       pg_temp.as_uuid(e.pipeline->>'codify_run_id'),
       COALESCE(jsonb_array_length(e.pipeline->'replaced_run_ids'), 0)
         + COALESCE(jsonb_array_length(e.pipeline->'replaced_codify_run_ids'), 0),
       COALESCE(ARRAY(SELECT pg_temp.as_uuid(x) FROM jsonb_array_elements_text(e.pipeline->'replaced_run_ids') AS x), '{}'),
       COALESCE(ARRAY(SELECT pg_temp.as_uuid(x) FROM jsonb_array_elements_text(e.pipeline->'replaced_codify_run_ids') AS x), '{}'),
       CASE WHEN e.pipeline ? 'note_ready' THEN COALESCE(e.processed_at, now()) END,
       e.received_at,
       now()
  FROM inbound_events e,
       LATERAL (SELECT CASE WHEN e.pipeline ? 'codify_run_id' THEN 'coding'
                            WHEN e.pipeline ? 'run_id' THEN 'extracting'
                            ELSE 'transcribed' END AS step) s
 WHERE pg_temp.as_uuid(e.pipeline->>'transcription_id') IS NOT NULL;

ALTER TABLE inbound_events DROP COLUMN pipeline;

-- A continuation is stored one way: on the row of the step it follows (a run, a codification),
-- no longer inside the run's client-visible config nor in the codification's job data.
ALTER TABLE runs ADD COLUMN continuation jsonb;
UPDATE runs SET continuation = config->'continuation', config = config - 'continuation' WHERE config ? 'continuation';
ALTER TABLE codify_runs ADD COLUMN continuation jsonb;
-- A codification of a migrated pipeline still in flight: its job (of the previous release)
-- carries the continuation in its data, which this release no longer reads; its row does now.
UPDATE codify_runs c
   SET continuation = jsonb_build_object('queue', 'pipeline-advance',
                                         'data', jsonb_build_object('event_id', p.event_id, 'request_id', 'event-' || e.event_id,
                                                                    'correlation_id', e.correlation_id))
  FROM documentation_pipelines p JOIN inbound_events e ON e.id = p.event_id
 WHERE p.step = 'coding' AND c.id = p.codify_run_id AND c.status IN ('pending', 'running');
