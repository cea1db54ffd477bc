-- HL7 senders authenticated by their network peer (DESIGN "Hospital protocols: senders, routing,
-- identifiers, bounds", 2026-11-26). MLLP has no credential of its own, so an hl7 integration names
-- the addresses (IPs or CIDRs) it sends from and, optionally, the SHA-256 fingerprint of its TLS
-- client certificate (uppercase hex pairs joined by colons, as Node reports it).
ALTER TABLE integrations ADD COLUMN allowed_ips inet[];
ALTER TABLE integrations ADD COLUMN tls_client_fingerprint text;
-- Several groups: PV1-3.4 (the hospital's facility code) -> group id. PID-3 assigning authority
-- (CX.4) -> FHIR identifier system.
ALTER TABLE integrations ADD COLUMN facility_groups jsonb;
ALTER TABLE integrations ADD COLUMN identifier_systems jsonb;

-- Senders made before: the listener bound 127.0.0.1 by default, so they keep the loopback addresses
-- (an operator whose senders are elsewhere makes the integration again with its allowed_ips).
UPDATE integrations SET allowed_ips = ARRAY['127.0.0.1', '::1']::inet[] WHERE source = 'hl7' AND allowed_ips IS NULL;
