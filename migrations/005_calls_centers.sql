-- Voice interface: outbound questionnaire calls, the idempotency keys of their creation, and the
-- centers and services catalog (seeded from config/centers.json, kept by inbound events).

CREATE TABLE centers (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  address_line  text NOT NULL,
  city          text NOT NULL,
  postal_code   text NOT NULL,
  country       text NOT NULL,
  phone         text NOT NULL,
  timezone      text NOT NULL,
  opening_hours jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX centers_name_idx ON centers (name, id);
CREATE INDEX centers_city_idx ON centers (lower(city));

-- A center's deletion takes its services with it (center.deleted).
CREATE TABLE center_services (
  id               text PRIMARY KEY,
  center_id        text NOT NULL REFERENCES centers (id) ON DELETE CASCADE,
  name             text NOT NULL,
  specialty        text NOT NULL,
  duration_minutes integer NOT NULL CHECK (duration_minutes > 0),
  languages        text[] NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX center_services_name_idx ON center_services (name, id);
CREATE INDEX center_services_center_idx ON center_services (center_id);

-- No foreign key to centers: a center may leave the catalog while its past calls stay.
CREATE TABLE calls (
  id               uuid PRIMARY KEY,
  group_id         text,
  questionnaire_id text NOT NULL,
  phone_number     text NOT NULL,
  patient_id       text,
  center_id        text,
  language         text,
  scheduled_at     timestamptz,
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  status           text NOT NULL DEFAULT 'queued' CHECK (status IN
                     ('queued', 'dispatched', 'ringing', 'in_progress', 'completed', 'failed', 'no_answer', 'cancelled')),
  status_reason    text,
  attempts         integer NOT NULL DEFAULT 0,
  answers          jsonb NOT NULL DEFAULT '[]'::jsonb,
  transcript       text,
  provider_call_id text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  dispatched_at    timestamptz,
  completed_at     timestamptz
);
CREATE INDEX calls_provider_call_idx ON calls (provider_call_id) WHERE provider_call_id IS NOT NULL;

-- Idempotency-Key of creating requests: scope is a hash of the API key (never the key itself).
-- The row is inserted first (ON CONFLICT DO NOTHING), so a concurrent duplicate waits on it and
-- then reads the stored answer.
CREATE TABLE idempotency_keys (
  scope        text NOT NULL,
  route        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status       integer NOT NULL,
  body         jsonb NOT NULL,
  resource_id  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, route, key)
);
