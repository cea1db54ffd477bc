-- HL7 destinations name the application and facility they are (DESIGN 2026-11-26: outbound MSH-5
-- and MSH-6 come from the endpoint's receiving_application and receiving_facility).
ALTER TABLE webhook_endpoints ADD COLUMN receiving_application text;
ALTER TABLE webhook_endpoints ADD COLUMN receiving_facility text;
