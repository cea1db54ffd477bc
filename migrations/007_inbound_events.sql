-- Inbound webhook events (EHR/HIS and voice service), stored before they are acknowledged.
-- The sender's event id is unique per source: a repeat is a duplicate, processed once.
CREATE TABLE inbound_events (
  id             uuid PRIMARY KEY,
  source         text NOT NULL CHECK (source IN ('ehr', 'voice')),
  event_id       text NOT NULL,
  type           text NOT NULL,
  occurred_at    timestamptz,
  group_id       text,
  data           jsonb NOT NULL,
  status         text NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'processing', 'completed', 'failed')),
  correlation_id text NOT NULL,
  pipeline       jsonb NOT NULL DEFAULT '{}'::jsonb,
  error          jsonb,
  attempts       integer NOT NULL DEFAULT 0,
  received_at    timestamptz NOT NULL DEFAULT now(),
  processed_at   timestamptz,
  UNIQUE (source, event_id)
);
CREATE INDEX inbound_events_event_id_idx ON inbound_events (event_id);
