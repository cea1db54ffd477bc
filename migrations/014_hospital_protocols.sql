-- Hospital protocols (DESIGN "Hospital protocols"): HL7 v2 messages received over MLLP are
-- inbound events of their own source, deduplicated per sender on MSH-10 like any other.
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_source_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_source_check CHECK (source IN ('ehr', 'voice', 'hl7'));

-- Destinations of other kinds than signed JSON webhooks: HL7 v2 over MLLP and FHIR R4 REST.
-- `auth` holds the SMART Backend Services client (token_url, client_id, scope); its private key
-- is kept apart in `auth_private_key`, sealed like the endpoint secret, never selected for display.
ALTER TABLE webhook_endpoints ADD COLUMN kind text NOT NULL DEFAULT 'webhook' CHECK (kind IN ('webhook', 'hl7-mllp', 'fhir'));
ALTER TABLE webhook_endpoints ADD COLUMN auth jsonb;
ALTER TABLE webhook_endpoints ADD COLUMN auth_private_key text;
