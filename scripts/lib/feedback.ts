import { z } from 'zod';
import { classify, parseTranscript, toUnits } from '../../src/engine/local/extraction/index.js';
import { visitFeatures } from '../../src/engine/local/extraction/learned.js';
import { SOAP_SECTIONS } from './note-sections.js';
import type { Sample } from './sentence-training.js';

/**
 * Clinician edits as training data for the sentence model: an export of `GET /api/v1/feedback`
 * (`{items: [...]}`, a JSON array of items, or JSON lines). Each signed SOAP section's sentences
 * are examples of that section; a draft sentence the clinician moved is an example of the section
 * it ended in (weighted, so it outweighs where it was: in the softmax a positive for the new
 * section is a negative for the old one); a draft sentence the clinician deleted is an example of
 * a sentence no note uses.
 */
const SectionTexts = z.record(z.string(), z.string().nullable().optional()).nullable().optional();
export const FeedbackItem = z.object({
  note_id: z.string().optional(),
  group_id: z.string().nullable().optional(),
  template: z.string().optional(),
  signed_at: z.string().nullable().optional(),
  draft: SectionTexts,
  signed: SectionTexts,
  suggested_codes: z.unknown().optional(),
  signed_codes: z.unknown().optional(),
});
export type FeedbackItem = z.infer<typeof FeedbackItem>;

/** How many times a moved sentence counts: the clinician's correction outweighs the draft's many look-alikes. */
export const MOVED_WEIGHT = 3;

/** Reads an export in any of its three shapes; a line or item that is not an item is an error naming it. */
export function readFeedback(text: string): FeedbackItem[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  let raw: unknown[];
  try {
    const parsed: unknown = JSON.parse(trimmed);
    raw = Array.isArray(parsed)
      ? parsed
      : Array.isArray((parsed as { items?: unknown })?.items)
        ? (parsed as { items: unknown[] }).items
        : [parsed];
  } catch {
    raw = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l, i) => {
        try {
          return JSON.parse(l) as unknown;
        } catch {
          throw new Error(`feedback line ${i + 1} is not JSON`);
        }
      });
  }
  return raw.map((r, i) => {
    const ok = FeedbackItem.safeParse(r);
    if (!ok.success) throw new Error(`feedback item ${i + 1} is not a feedback item: ${ok.error.issues[0]?.message ?? 'invalid'}`);
    return ok.data;
  });
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9%/.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A note section's sentences, headings dropped ("CURRENT MEDICATIONS: ..."). */
export function sectionSentences(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\n+/)
    .map((p) => p.replace(/^[A-Z][A-Z /-]+:\s*/, ''))
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z0-9])/))
    .map((s) => s.trim())
    .filter((s) => /[a-z0-9]/i.test(s));
}

// Features of where a sentence sat in a transcript mean nothing for a note's sentence.
const PLACE_FEATURE = /^(?:pos|spk|spk-phase|phase|answer):/;

/** The model's features for a written sentence, read as the clinician's own prose. */
function featuresOf(sentence: string): string[] | undefined {
  const units = toUnits(parseTranscript(sentence));
  if (!units.length) return undefined;
  const feats = visitFeatures(units, classify(units));
  // A sentence the splitter cuts in two counts once, with the words of both halves.
  return [...new Set(feats.flat())].filter((f) => !PLACE_FEATURE.test(f));
}

/** Training samples from the clinicians' edits (SOAP sections; other templates' sections are skipped). */
export function feedbackSamples(items: FeedbackItem[]): Sample[] {
  const out: Sample[] = [];
  for (const item of items) {
    const signedAt = new Map<string, number>();
    SOAP_SECTIONS.forEach((s, i) => sectionSentences(item.signed?.[s]).forEach((x) => signedAt.set(norm(x), i + 1)));
    const draftAt = new Map<string, number>();
    SOAP_SECTIONS.forEach((s, i) => sectionSentences(item.draft?.[s]).forEach((x) => draftAt.set(norm(x), i + 1)));
    SOAP_SECTIONS.forEach((s, i) => {
      const label = i + 1;
      for (const sentence of sectionSentences(item.signed?.[s])) {
        const features = featuresOf(sentence);
        if (!features) continue;
        const was = draftAt.get(norm(sentence));
        const times = was !== undefined && was !== label ? MOVED_WEIGHT : 1;
        for (let t = 0; t < times; t++) out.push({ features, label });
      }
    });
    // Deleted by the clinician: a sentence no note should use.
    for (const [key] of draftAt) {
      if (signedAt.has(key)) continue;
      const sentence = SOAP_SECTIONS.flatMap((s) => sectionSentences(item.draft?.[s])).find((x) => norm(x) === key);
      const features = sentence ? featuresOf(sentence) : undefined;
      if (features) out.push({ features, label: 0 });
    }
  }
  return out;
}
