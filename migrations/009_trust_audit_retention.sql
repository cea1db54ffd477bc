-- Audit trail: the caller's own x-request-id beside the service-made request id, and indexes for
-- the operator audit API's filters (newest first).
ALTER TABLE audit_log ADD COLUMN client_request_id text;
CREATE INDEX audit_log_resource_idx ON audit_log (resource_id, at DESC) WHERE resource_id IS NOT NULL;
CREATE INDEX audit_log_patient_idx ON audit_log (patient, at DESC) WHERE patient IS NOT NULL;
CREATE INDEX audit_log_user_idx ON audit_log (user_id, at DESC) WHERE user_id IS NOT NULL;
CREATE INDEX audit_log_group_idx ON audit_log (group_id, at DESC) WHERE group_id IS NOT NULL;

-- Data retention: working copies of PHI are redacted after RETENTION_DAYS; the row stays, marked.
ALTER TABLE inbound_events ADD COLUMN redacted_at timestamptz;
ALTER TABLE outbox ADD COLUMN redacted_at timestamptz;
CREATE INDEX inbound_events_unredacted_idx ON inbound_events (received_at) WHERE redacted_at IS NULL;
CREATE INDEX outbox_unredacted_idx ON outbox (created_at) WHERE redacted_at IS NULL;
