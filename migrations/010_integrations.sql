-- Inbound integrations: senders with their own secret, bound to the groups they may write.
-- `secret` is sealed with SECRETS_ENCRYPTION_KEY when it is set (lib/secret-box.ts).
CREATE TABLE integrations (
  id                  uuid PRIMARY KEY,
  name                text NOT NULL,
  source              text NOT NULL CHECK (source IN ('ehr', 'voice', 'hl7')),
  group_ids           text[] NOT NULL,
  secret              text NOT NULL,
  -- HL7 senders are matched on MSH-3 and MSH-4 (DESIGN "Hospital protocols").
  sending_application text,
  sending_facility    text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  revoked_at          timestamptz
);

-- An integration's events are its own: its event ids cannot collide with another sender's.
ALTER TABLE inbound_events ADD COLUMN integration_id uuid REFERENCES integrations (id);
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_source_event_id_key;
CREATE UNIQUE INDEX inbound_events_sender_event_idx
  ON inbound_events (source, COALESCE(integration_id, '00000000-0000-0000-0000-000000000000'::uuid), event_id);
