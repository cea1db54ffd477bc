-- Secrets rotate with overlap (DESIGN "Delivery operations", 2026-11-26): after a rotation the
-- previous secret (sealed like the current one, bound to its own column) still verifies inbound
-- posts, and still signs outbound deliveries beside the new one, until it expires.
ALTER TABLE integrations ADD COLUMN previous_secret text, ADD COLUMN previous_secret_expires_at timestamptz;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret text, ADD COLUMN previous_secret_expires_at timestamptz;
