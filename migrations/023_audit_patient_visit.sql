-- Fair share between groups (DESIGN.md, 2026-11-26), the audit part.
-- Transcriptions and runs show the visit (encounter) the pipeline knows from its inbound event,
-- beside their patient (clinical_notes.visit_id came with 026).
ALTER TABLE transcriptions ADD COLUMN visit_id text;
ALTER TABLE runs ADD COLUMN visit_id text;

-- A read of the audit trail records the filters it was asked with.
ALTER TABLE audit_log ADD COLUMN filters jsonb;

-- The audit table refuses TRUNCATE as it refuses UPDATE and DELETE.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- The patient of the resource an audited request named, read from the resource itself (so a
-- read records its patient even when the caller sent no x-patient). Only a resource of the
-- caller's group counts; an operator's request (no group) may name any group's. NULL when the
-- id names no resource with a patient.
CREATE FUNCTION audit_resource_patient(resource_id text, caller_group text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT r.patient_id
    FROM (SELECT CASE WHEN resource_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                      THEN resource_id::uuid END AS id) ids,
    LATERAL (
      SELECT patient_id, group_id FROM clinical_notes WHERE id = ids.id
      UNION ALL SELECT patient_id, group_id FROM transcriptions WHERE id = ids.id
      UNION ALL SELECT patient_id, group_id FROM runs WHERE id = ids.id
      UNION ALL SELECT patient_id, group_id FROM threads WHERE id = ids.id
      UNION ALL SELECT patient_id, group_id FROM codify_runs WHERE id = ids.id
      UNION ALL SELECT patient_id, group_id FROM calls WHERE id = ids.id
    ) r
   WHERE ids.id IS NOT NULL AND r.patient_id IS NOT NULL AND (caller_group IS NULL OR r.group_id = caller_group)
   LIMIT 1
$$;
