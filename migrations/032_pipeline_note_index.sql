-- Signing or amending a note reads the patient's assigning authority from the pipeline that wrote
-- the note (notes.repo.ts notePatientAuthority): look the pipeline up by its note, not by a scan.
CREATE INDEX IF NOT EXISTS documentation_pipelines_note_id ON documentation_pipelines (note_id) WHERE note_id IS NOT NULL;
