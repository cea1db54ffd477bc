-- Evidence of an extracted note: per section, each sentence with the 1-based transcript lines it
-- was drawn from (DESIGN.md, Clinical notes). Null for notes written by hand.
ALTER TABLE clinical_notes ADD COLUMN evidence jsonb;
