-- Calls that never hang (DESIGN "Delivery operations", 2026-11-26): a call with no terminal status
-- CALL_TIMEOUT_MINUTES after dispatch is asked of the provider once, then ends `timed_out`.
ALTER TABLE calls DROP CONSTRAINT IF EXISTS calls_status_check;
ALTER TABLE calls ADD CONSTRAINT calls_status_check CHECK (status IN
  ('queued', 'dispatched', 'ringing', 'in_progress', 'completed', 'failed', 'no_answer', 'cancelled', 'timed_out'));
-- when the time-out asked the provider (once, whatever it answered)
ALTER TABLE calls ADD COLUMN timeout_asked_at timestamptz;
