-- Outbound webhooks: subscriptions, one delivery per (endpoint, outbox event), every attempt.

CREATE TABLE webhook_endpoints (
  id              uuid PRIMARY KEY,
  url             text NOT NULL,
  events          text[] NOT NULL DEFAULT '{}',
  group_id        text,
  description     text,
  thin            boolean NOT NULL DEFAULT false,
  secret          text NOT NULL,
  -- Whether private addresses were allowed when it was subscribed; delivery needs this and the
  -- deployment's WEBHOOK_ALLOW_PRIVATE both, so flipping the setting on never opens old endpoints.
  allow_private   boolean NOT NULL DEFAULT false,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'deleted')),
  disabled_reason text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_active_idx ON webhook_endpoints (group_id) WHERE status = 'active';

-- The delivery id is the Standard Webhooks message id (`webhook-id`): stable across retries and replays.
CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY,
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id),
  event_id        uuid NOT NULL REFERENCES outbox (id),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead', 'cancelled')),
  attempt_count   integer NOT NULL DEFAULT 0,
  -- failures since the delivery was created or last replayed: the index into the retry schedule
  retry_index     integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- set while a worker holds the delivery; an expired lease means the worker died mid-attempt
  lease_until     timestamptz,
  last_status_code integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- One row per HTTP attempt: outcome only, never the request or response body.
CREATE TABLE webhook_delivery_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id),
  attempt     integer NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (delivery_id, attempt)
);
