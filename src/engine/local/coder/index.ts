import type { CodeAssessment, CodifyModel } from '../../engine.js';
import type { CodeTable } from '../../../terminology/code-table.js';
import { featuresOf, isFirm, probability, type FeatureContext } from './acceptance.js';
import { confidenceOf } from './assessment.js';
import { Candidates, dotted, newCandidate, SEQUELA_TITLE, type Candidate, type NoteContext } from './candidate.js';
import { assertWords, assertionOf } from './assertions.js';
import { matchDescriptions } from './description-matcher.js';
import { evidenceOf } from './evidence.js';
import { matchExactTitles } from './exact-titles.js';
import { applyGuidelines } from './guidelines.js';
import { blankHeadings } from './headings.js';
import { justify } from './justify.js';
import { traitsOf } from './traits.js';
import { ARTIFACTS } from './learned/artifacts.js';
import type { CoderArtifacts } from './learned/types.js';
import { compiledLearned, matchLearned, type CompiledLearned } from './learned-matcher.js';
import { compiledLexicon, matchLexicon, type CompiledLexicon } from './lexicon-matcher.js';
import { compiledInclusions, matchInclusions } from './inclusion-matcher.js';
import { LEVELS, type LevelConfig } from './levels.js';
import type { Mention, SentenceStems } from './mention.js';
import { splitSentences } from './sentence-split.js';
import { billableFor, categoryLessSpecific, mergeByCode, mergeIndexFound, resolveSentence, type Found } from './select.js';
import { indexMentions, indexNoteOf } from './index-lookup.js';
import { withSecondSites } from './second-site.js';
import { modifiesAnother } from './learned-modifier.js';
import { symptomModifiesNext } from './word-modifier.js';
import { encounterDefaults } from './encounter.js';
import { shippedIndexTabular, type IndexTabular } from '../../../terminology/index-tabular.js';
import { shippedTermTables, type TermTables } from '../../../terminology/term-tables.js';
import type { Assertion } from './assertions.js';
import { isInpatient } from './setting.js';
import { coldIllness, senseProblem } from './word-sense.js';
import { readAbbreviationSenses } from './abbreviation-sense.js';

export interface CodifyTextResult {
  final_code_assessments: CodeAssessment[];
  discarded_code_assessments: CodeAssessment[];
}

export interface CodifyOptions {
  /** UTF-16 length of medical_note within the text (evidence after it is the PDF's) */
  noteLength?: number;
  /** learned lexicon and acceptance model; null: none (training), default: the committed ones */
  artifacts?: CoderArtifacts | null;
  /** the Alphabetic Index and Tabular; null: none; default: the shipped ones */
  indexTabular?: IndexTabular | null;
  /** the FY2026 drug, neoplasm and external-cause tables; null: none; default: the shipped ones */
  termTables?: TermTables | null;
}

/**
 * Codes a clinical note against `table`: pure, synchronous, deterministic. Every code it returns,
 * final or discarded, is a row of `table`, with its evidence in the note.
 */
export function codifyText(table: CodeTable, text: string, model: CodifyModel, options: CodifyOptions = {}): CodifyTextResult {
  const artifacts = options.artifacts === undefined ? ARTIFACTS : options.artifacts;
  const it = options.indexTabular === undefined ? shippedIndexTabular() : options.indexTabular;
  const tables = options.termTables === undefined ? shippedTermTables() : options.termTables;
  const cands = codifyCandidates(table, text, model, artifacts, undefined, it ?? undefined, tables);
  const finals: CodeAssessment[] = [];
  const discarded: CodeAssessment[] = [];
  for (const c of cands.list) {
    // A learned phrase the model rejects was an association, never a statement: not reported.
    if (!c.final && c.origin === 'learned') continue;
    const traits = traitsOf(c, cands.ctx);
    let justification = justify(c, cands.ctx);
    // A discard for how the note asserts the condition names that trait and its words.
    const cause =
      !c.final && c.assertion !== 'present'
        ? traits.find((t) => t.name === c.assertion || (c.assertion === 'historical' && t.name === 'resolved'))
        : undefined;
    if (cause) justification = justification.replace(/^(Discarded: .*?\.)(?=\s|$)/, `$1 Trait: ${cause.name} ("${cause.text}").`);
    (c.final ? finals : discarded).push({
      code: dotted(c.code),
      description: table.descriptionAt(c.index),
      justification,
      confidence_percent: c.confidence,
      evidence: evidenceOf(text, c.spans, options.noteLength),
      traits,
    });
  }
  return { final_code_assessments: finals, discarded_code_assessments: discarded };
}

const SOURCE_BITS: Record<Mention['source'], number> = { lexicon: 1, learned: 2, description: 4, index: 8 };

/** What the training script watches: each raw final candidate (with its features), then each rule-made code. */
export type Observer = (stage: 'raw' | 'ruled', c: Candidate, features: () => number[]) => void;

/**
 * The candidate codes of a note: read from its words, judged by the level's acceptance model
 * (weak readings under its threshold are discarded), then the guideline rules, which only see
 * what was accepted; a code a rule makes is as sure as its least sure part.
 */
export function codifyCandidates(
  table: CodeTable,
  text: string,
  model: CodifyModel,
  artifacts: CoderArtifacts | null,
  observe?: Observer,
  it: IndexTabular | undefined = shippedIndexTabular(),
  tables: TermTables | null = shippedTermTables(),
): Candidates {
  const cfg = LEVELS[model];
  const lex = compiledLexicon(table);
  const inclusions = it && compiledInclusions(table, it);
  const learned = artifacts && cfg.learned ? compiledLearned(table, artifacts.lexicon, cfg.learnedMinPrecision) : undefined;
  const sentences = splitSentences(blankHeadings(text));
  const defaults = encounterDefaults(text);
  const ctx: NoteContext = { table, text, sentences, inpatient: isInpatient(sentences), it, tables: tables ?? undefined, defaults };
  // The sources that read each code (SOURCE_BITS), one bit each.
  const sources = new Map<number, number>();
  const senseDropped: Found[] = [];
  const found: Found[] = [];
  const read = sentences.map((s) => ({ st: s.stems, assertions: assertWords(s.words, s.lower) }));
  const indexNote = it && indexNoteOf(it, table, read, defaults);
  sentences.forEach((s, si) => {
    const fromData: Found[] = [];
    const { st, assertions } = read[si];
    const items = sentenceMentions(table, lex, learned, cfg, s.words, s.lower, si, fromData, st, assertions);
    const included = inclusions ? matchInclusions(inclusions, st, s.lower, si, s.words) : [];
    if (included.length) {
      // An inclusion term adds a code the sentence's names and titles do not already read.
      const named = new Set(items.map((f) => f.mention.code));
      for (const mention of included)
        if (!named.has(mention.code)) items.push({ mention, assertion: assertionOf(assertions, mention.start, mention.end) });
    }
    const indexed = indexNote
      ? withSecondSites(
          indexNote,
          st,
          s.lower,
          assertions,
          si,
          cfg.indexWindow,
          indexMentions(indexNote, st, s.lower, assertions, si, cfg.indexWindow),
        ).map((mention) => ({
          mention,
          assertion: assertionOf(assertions, mention.start, mention.end, mention.denied),
        }))
      : [];
    const lower = s.lower;
    const kept: Found[] = [];
    for (const f of items.length && fromData.length ? items.concat(fromData) : items.length ? items : fromData) {
      sources.set(f.mention.code, (sources.get(f.mention.code) ?? 0) | SOURCE_BITS[f.mention.source]);
      const problem = senseProblem(table, f.mention, lower) ?? symptomModifiesNext(it, table, f.mention, lower);
      if (problem) senseDropped.push({ ...f, discard: problem });
      else if (f.mention.source !== 'learned') kept.push(f);
    }
    for (const f of indexed) {
      if (f.mention.indexTerm !== undefined) (ctx.indexTerms ??= new Map()).set(f.mention.code, f.mention.indexTerm);
      sources.set(f.mention.code, (sources.get(f.mention.code) ?? 0) | SOURCE_BITS.index);
    }
    const resolved = mergeIndexFound(
      resolveSentence(kept, table),
      indexed.filter((f) => !senseProblem(table, f.mention, lower) && !symptomModifiesNext(it, table, f.mention, lower)),
    );
    for (const f of resolved) found.push(f);
    if (fromData.length === 0) return;
    // Learned phrases are associations, not statements of a concept: they neither cover nor are
    // covered by what the sentence states; they add the codes it does not already hold.
    const held = new Set(resolved.map((f) => f.mention.code));
    const learnedBest = new Map<number, Found>();
    for (const f of fromData) {
      if (held.has(f.mention.code) || senseProblem(table, f.mention, lower) || modifiesAnother(it, table, f.mention, lower)) continue;
      const prev = learnedBest.get(f.mention.code);
      if (!prev || f.mention.score > prev.mention.score) learnedBest.set(f.mention.code, f);
    }
    for (const f of learnedBest.values()) found.push(f);
  });
  const occurrences = new Map<number, number>();
  for (const f of found) occurrences.set(f.mention.code, (occurrences.get(f.mention.code) ?? 0) + 1);
  const merged = mergeByCode(found);
  categoryLessSpecific(
    merged.filter((f) => f.assertion === 'present'),
    table,
  );
  const order = merged.sort((a, b) => a.mention.sentence - b.mention.sentence || a.mention.start - b.mention.start);
  const cands = new Candidates(ctx);
  for (const f of order) addFound(cands, f, occurrences.get(f.mention.code) ?? 1);
  for (const f of mergeByCode(senseDropped)) if (!cands.get(table.codeAt(f.mention.code))) addFound(cands, f, 1);

  const multiSource = new Set<string>();
  for (const [code, bits] of sources) {
    if ((bits & (bits - 1)) !== 0) multiSource.add(table.codeAt(code));
    if ((bits & SOURCE_BITS.lexicon) !== 0) {
      const c = cands.get(table.codeAt(code));
      if (c) c.named = true;
    }
  }
  const fx: FeatureContext = { table, priors: artifacts?.priors ?? {}, multiSource, it };
  const features = (c: Candidate) => featuresOf(c, fx);
  if (observe) for (const c of cands.finals()) observe('raw', c, () => features(c));
  accept(cands, model, artifacts, features);
  readAbbreviationSenses(cands);
  const cold = coldIllness(sentences);
  if (cold.length)
    cands.assign('J00', '"a cold" in this sentence is the common cold (Index: Cold, common, J00), not cold temperature', [], cold);
  applyGuidelines(cands, cfg);
  const rated = new Set<Candidate>();
  // A code a rule made from parts is as sure as its least sure part (a part a rule made is rated
  // first: N18.32 before the E11.22 made from it); otherwise as often as the coder was right with
  // this code out of fold.
  const rate = (c: Candidate): number => {
    if (c.origin !== 'rule' || rated.has(c)) return c.confidence;
    rated.add(c);
    if (c.from?.length) c.confidence = Math.min(...c.from.map(rate));
    else {
      const prior = artifacts?.priors[c.code];
      c.confidence = prior ? Math.round((100 * (prior[0] + 1)) / (prior[1] + 2)) : 50;
    }
    return c.confidence;
  };
  for (const c of cands.list) {
    if (c.origin !== 'rule') continue;
    rate(c);
    if (observe && c.final) observe('ruled', c, () => features(c));
  }
  return cands;
}

/** Confidence for every candidate; weak final ones under the level's threshold are discarded. */
function accept(cands: Candidates, model: CodifyModel, artifacts: CoderArtifacts | null, features: (c: Candidate) => number[]): void {
  const acceptance = artifacts?.models[model];
  if (acceptance && acceptance.weights.length === 0) return; // training: every reading stays
  for (const c of cands.list) {
    if (!acceptance) {
      c.confidence = c.found ? confidenceOf(c.found, cands.ctx.table) : 50;
      if (c.final && c.confidence < LEVELS[model].minConfidence) cands.discard(c, `Discarded: low confidence (${c.confidence}%).`);
      continue;
    }
    const x = features(c);
    const p = probability(acceptance, x);
    c.confidence = Math.round(100 * (acceptance.confidence ? probability(acceptance.confidence, x) : p));
    // Firm statements keep their code whatever the model says; it decides weak readings.
    if (c.final && !isFirm(c) && p < acceptance.threshold) {
      cands.discard(
        c,
        `Discarded: low confidence (${Math.round(100 * p)}% by the acceptance model), under the ${model} level's acceptance threshold of ${Math.round(100 * acceptance.threshold)}%.`,
      );
    }
  }
}

const REASONS = {
  negated: 'Discarded: negated in the note.',
  family: 'Discarded: family history, not the patient.',
  historical: 'Discarded: historical or resolved, not a current condition.',
  hypothetical: 'Discarded: hypothetical (a plan, a risk or a condition), not a diagnosis of this encounter.',
  uncertain:
    'Discarded: uncertain diagnosis (probable, suspected, hypothetical or rule-out) in an outpatient note; its signs and symptoms are coded instead (guideline IV.H).',
} as const;

function addFound(cands: Candidates, f: Found, occurrences: number): void {
  const { table, sentences, inpatient } = cands.ctx;
  const m = f.mention;
  const s = sentences[m.sentence];
  let index = m.code;
  const c = newCandidate({
    index,
    code: table.codeAt(index),
    final: false,
    rule: '',
    spans: [{ start: s.starts[m.start], end: s.ends[m.end] }],
    origin: m.source,
    assertion: f.assertion,
    found: f,
    occurrences,
    confidence: 0,
  });
  // A sequela ("following cerebral infarction", 7th character S) is current, however long ago its cause (I.B.10).
  if (c.assertion === 'historical' && SEQUELA_TITLE.test(table.descriptionAt(index))) c.assertion = 'present';
  if (f.discard) c.why = `Discarded: word sense. ${f.discard}`;
  else if (c.assertion === 'uncertain' && inpatient) {
    c.final = true;
    c.rule = 'an uncertain diagnosis in an inpatient record is coded as if established (guideline II.H)';
  } else if (c.assertion !== 'present') c.why = REASONS[c.assertion];
  else if (f.lessSpecificThan !== undefined)
    c.why = `Discarded: less specific than ${table.dottedAt(f.lessSpecificThan)}, stated in the same words.`;
  else if (!table.billableAt(index)) {
    const child = billableFor(table, index);
    if (child === undefined) c.why = 'Discarded: header (non-billable) code; the note does not say which billable child applies.';
    else {
      c.why = `Discarded: header (non-billable) code; coded as ${table.dottedAt(child)} instead.`;
      cands.add(c);
      index = child;
      cands.add(newCandidate({ ...c, index, code: table.codeAt(index), final: true, why: undefined }));
      return;
    }
  } else c.final = true;
  cands.add(c);
}

/** Synonym, learned and title mentions of one sentence, each with the sentence's assertion over its words. */
function sentenceMentions(
  table: CodeTable,
  lex: CompiledLexicon,
  learned: CompiledLearned | undefined,
  cfg: LevelConfig,
  words: string[],
  lower: string[],
  si: number,
  learnedOut: Found[],
  st: SentenceStems,
  assertions: Assertion[],
): Found[] {
  const lexical = matchLexicon(lex, words, st, si);
  const fromData = learned ? matchLearned(learned, st, si) : [];
  learnedOut.length = 0;
  for (const mention of fromData) learnedOut.push({ mention, assertion: assertionOf(assertions, mention.start, mention.end) });
  let described: Mention[];
  if (cfg.descriptions === 'exact') described = matchExactTitles(table, st, si, cfg);
  else {
    const clauses = cfg.clauses ? clausesOf(lower) : undefined;
    described = matchDescriptions(table, st, si, cfg, [], clauses?.[0], clauses?.[1]);
  }
  const out: Found[] = [];
  for (const mention of lexical) out.push({ mention, assertion: assertionOf(assertions, mention.start, mention.end) });
  for (const mention of described) out.push({ mention, assertion: assertionOf(assertions, mention.start, mention.end) });
  return out;
}

const CLAUSE_BREAKS = new Set([',', ';', ':', '(', ')']);
const CONJUNCTIONS = new Set(['and', 'or', '/']);

let listItems = new Int32Array(0);
let conjoined = new Int32Array(0);

/**
 * Clause numbers of each word: by commas, semicolons and brackets (the items of a list), and by
 * "and", "or", "/". In two buffers the thread reuses (one sentence is read at a time).
 */
function clausesOf(lower: readonly string[]): readonly [Int32Array, Int32Array] {
  if (listItems.length < lower.length) {
    listItems = new Int32Array(Math.max(lower.length, 2 * listItems.length));
    conjoined = new Int32Array(listItems.length);
  }
  let c = 0;
  let d = 0;
  for (let i = 0; i < lower.length; i++) {
    const w = lower[i];
    if (w.length <= 3) {
      if (CLAUSE_BREAKS.has(w)) c++;
      if (CONJUNCTIONS.has(w)) d++;
    }
    listItems[i] = c;
    conjoined[i] = d;
  }
  return [listItems, conjoined];
}
