-- The patient id's assigning authority (HL7 PID-3 CX.4) and its FHIR identifier system, kept with
-- the pipeline from its start: the sign-off messages of its note (note.signed / note.amended,
-- MDM^T04 / T08, ADT^A08, the FHIR write-back) read them from here, also after RETENTION_DAYS has
-- redacted the inbound event's body, where they were read before.
ALTER TABLE documentation_pipelines ADD COLUMN patient_authority text, ADD COLUMN patient_system text;

-- Pipelines started before: from their events' bodies, where retention has not redacted them yet.
UPDATE documentation_pipelines p
   SET patient_authority = e.data->>'patient_authority', patient_system = e.data->>'patient_system'
  FROM inbound_events e
 WHERE e.id = p.event_id AND (e.data ? 'patient_authority' OR e.data ? 'patient_system');
