/**
 * The sentences of a note a clinician would rewrite before signing, by kind (issue 29): questions
 * kept as statements, numbers spelt as speech, narration of the visit, words said to the patient
 * or a child, fillers, doubled words. A heuristic reviewer, used by `npm run scribe-check`,
 * `npm run critical-facts` and the extraction tests; it flags, it never rewrites.
 */
export const KINDS = ['question', 'spoken number', 'narration', 'addressed', 'filler', 'doubled words'] as const;
export type Kind = (typeof KINDS)[number];

const NUM =
  '(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)';

const CHECKS: [Kind, RegExp][] = [
  [
    'question',
    /\?|^(?:any|how|what|why|when|where|which|who)\b|^(?:is|are|do|does|did|have|has|can|could|would|will|was|were) (?:you|the patient|she|he|they|there|it|that|this)\b|\b(?:how's|how is|how are|what's) (?:that|it|everything|things) (?:been )?going\b|, right\.?$/i,
  ],
  [
    'spoken number',
    new RegExp(
      `\\b${NUM} (?:${NUM}|point|over)\\b|\\bpoint ${NUM}\\b|\\b${NUM} \\d|\\d+ ${NUM}\\b(?! (?:times|days|weeks|months|years|hours|minutes|of|or|and|to))|\\b${NUM} (?:milligrams?|mg|percent|degrees|pounds|beats)\\b|\\b(?:is|was|of|at) ${NUM} (?:over|point)\\b`,
      'i',
    ),
  ],
  [
    'narration',
    /\blet (?:the clinician|me|us)\b|\blet's (?:take a look|have a look|listen|examine|check you|see)\b|\bthe clinician (?:hears|is going to|will (?:just )?(?:take|look|examine|listen|get)|is just going|wants to (?:take|look|examine|listen))\b|\b(?:i'm|i am) (?:just )?going to (?:take a look|examine|listen|look)\b|\btake a (?:quick )?look\b|\bget (?:the patient's|your|his|her) shoes\b|\bas we (?:discussed|talked about)\b/i,
  ],
  [
    'addressed',
    /\b(?:you|your|yours|yourself)\b|\b(?:sweetie|honey|sweetheart|buddy|kiddo|good job|big breaths?|you're doing great|don't worry|it's okay|thank you for (?:telling|sharing|coming))\b/i,
  ],
  [
    'filler',
    /^(?:ha|haha|okay|ok|so|well|alright|all right|um|uh|yeah|fair enough|you know|i mean|oh|hey)\b|^right(?:,| so\b)|\b(?:fair enough|you know|i mean|kind of like|okay so|alright so)\b/i,
  ],
  ['doubled words', /\b(\w+(?:'\w+)?(?: \w+)?) \1\b/i],
];

/** The kinds a sentence shows (none for a sentence a clinician would sign as written). */
export function rewriteKinds(sentence: string): Kind[] {
  const s = sentence.trim();
  return CHECKS.filter(([, re]) => re.test(s)).map(([k]) => k);
}

/** The sentences of a note section, headings dropped ("VITALS: ...", "CHIEF COMPLAINT: ..."). */
export function noteSentences(section: string): string[] {
  return section
    .split(/\n+/)
    .map((p) => p.replace(/^[A-Z][A-Z /-]+:\s*/, ''))
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z0-9])/))
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface RewriteCount {
  sentences: number;
  flagged: number;
  byKind: Record<Kind, number>;
  examples: { kind: Kind; sentence: string }[];
}

/** Counts the sentences to rewrite over a set of notes (each a record of section texts). */
export function countRewrites(notes: Record<string, string>[], placeholders: string[] = []): RewriteCount {
  const out: RewriteCount = {
    sentences: 0,
    flagged: 0,
    byKind: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    examples: [],
  };
  for (const note of notes)
    for (const text of Object.values(note)) {
      if (placeholders.includes(text)) continue;
      for (const s of noteSentences(text)) {
        out.sentences++;
        const kinds = rewriteKinds(s);
        if (!kinds.length) continue;
        out.flagged++;
        for (const k of kinds) {
          out.byKind[k]++;
          if (out.examples.filter((e) => e.kind === k).length < 3) out.examples.push({ kind: k, sentence: s });
        }
      }
    }
  return out;
}

export function formatRewrites(title: string, r: RewriteCount, withExamples = false): string {
  const pct = ((100 * r.flagged) / Math.max(1, r.sentences)).toFixed(1);
  const lines = [
    `${title}: ${r.flagged} of ${r.sentences} sentences to rewrite (${pct}%); ${KINDS.map((k) => `${k} ${r.byKind[k]}`).join(', ')}`,
  ];
  if (withExamples) for (const e of r.examples) lines.push(`  ${e.kind}: ${e.sentence.slice(0, 160)}`);
  return lines.join('\n');
}
