-- Issue 20: one index fewer to write per stored event. The sender's unique key now leads with
-- the sender's event id, so the same index also finds an event by that id alone (GET and retry
-- of /api/v1/webhooks/events/{id}), and the separate event_id index goes. The key itself is
-- unchanged: one event per (source, integration, event id).
CREATE UNIQUE INDEX inbound_events_sender_key ON inbound_events
  (event_id, source, COALESCE(integration_id, '00000000-0000-0000-0000-000000000000'::uuid));
DROP INDEX inbound_events_sender_event_idx;
DROP INDEX inbound_events_event_id_idx;
