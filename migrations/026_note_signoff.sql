-- Note sign-off and amendments (DESIGN.md, 2026-11-26). A note is a draft until a clinician
-- signs it; a change after that is an amendment. signed_version is the version the signature
-- made (the signed text, for the feedback export); engine_version the last version the engine
-- wrote (the draft); visit_id the EHR visit the note documents (HL7 PV1-19, FHIR encounter).
ALTER TABLE clinical_notes
  ADD COLUMN status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'signed', 'amended')),
  ADD COLUMN signed_by text,
  ADD COLUMN signed_at timestamptz,
  ADD COLUMN signed_codes jsonb,
  ADD COLUMN signed_version integer,
  ADD COLUMN amendment_reason text,
  ADD COLUMN engine_version integer,
  ADD COLUMN visit_id text;

-- The feedback export reads signed notes oldest first by (signed_at, id); the console counts drafts.
CREATE INDEX clinical_notes_signed_idx ON clinical_notes (signed_at, id) WHERE signed_at IS NOT NULL;
CREATE INDEX clinical_notes_drafts_idx ON clinical_notes (group_id) WHERE status = 'draft';

-- A note's codifications are those of its pipeline (same correlation id): the last one's final
-- codes are the default signed codes.
CREATE INDEX codify_runs_correlation_idx ON codify_runs (correlation_id, created_at DESC) WHERE correlation_id IS NOT NULL;
