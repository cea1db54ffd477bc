import type { CodeAssessment, CodifyModel } from '../../engine.js';
import type { CodeTable } from '../../../terminology/code-table.js';
import { stemWords } from '../../../terminology/text-normalize.js';
import { confidenceOf, quote, reasonFor, toAssessment } from './assessment.js';
import { assertWords, assertionOf } from './context.js';
import { matchDescriptions } from './description-matcher.js';
import { matchExactTitles } from './exact-titles.js';
import { compiledLexicon, matchLexicon, type CompiledLexicon } from './lexicon-matcher.js';
import { LEVELS, type LevelConfig } from './levels.js';
import type { Mention } from './mention.js';
import { splitSentences } from './nlp.js';
import { billableFor, categoryLessSpecific, mergeByCode, resolveSentence, type Found } from './select.js';

export interface CodifyTextResult {
  final_code_assessments: CodeAssessment[];
  discarded_code_assessments: CodeAssessment[];
}

/**
 * Codes a clinical note against `table`: pure, synchronous, deterministic. Every code it returns,
 * final or discarded, is a row of `table`.
 */
export function codifyText(table: CodeTable, text: string, model: CodifyModel): CodifyTextResult {
  const cfg = LEVELS[model];
  const lex = compiledLexicon(table);
  const sentences = splitSentences(text);
  const perSentence = sentences.map((s, si) => sentenceMentions(table, lex, cfg, s.words, si));
  const found = perSentence.flatMap((items) => resolveSentence(items, table));

  const merged = mergeByCode(found);
  categoryLessSpecific(
    merged.filter((f) => f.assertion === 'present'),
    table,
  );

  const finals: CodeAssessment[] = [];
  const discarded: CodeAssessment[] = [];
  const emitted = new Set<string>();
  const order = merged.sort((a, b) => a.mention.sentence - b.mention.sentence || a.mention.start - b.mention.start);
  for (const f of order) {
    const evidence = quote(sentences[f.mention.sentence].words, f.mention.start, f.mention.end);
    const confidence = confidenceOf(f, table);
    let code = f.mention.code;
    const push = (list: CodeAssessment[], c: number, why: string, conf: number) => {
      const key = table.codeAt(c);
      if (emitted.has(key) || !table.has(key)) return;
      emitted.add(key);
      list.push(toAssessment(table, c, why, conf));
    };
    const reason = reasonFor(f.assertion);
    if (reason) {
      push(discarded, code, `${reason}: ${evidence}`, confidence);
      continue;
    }
    if (f.lessSpecificThan !== undefined) {
      push(discarded, code, `Discarded: less specific than ${table.dottedAt(f.lessSpecificThan)}, stated as ${evidence}`, confidence);
      continue;
    }
    if (!table.billableAt(code)) {
      const child = billableFor(table, code);
      if (child === undefined) {
        push(discarded, code, `Discarded: header (non-billable) code; the note does not say which billable child applies: ${evidence}`, confidence);
        continue;
      }
      push(discarded, code, `Discarded: header (non-billable) code; coded as ${table.dottedAt(child)} instead`, confidence);
      code = child;
    }
    if (confidence < cfg.minConfidence) {
      push(discarded, code, `Discarded: low confidence (${confidence}%), partial match of the title: ${evidence}`, confidence);
      continue;
    }
    const how = f.mention.source === 'lexicon' ? 'Stated as' : 'Title matched by';
    push(finals, code, `${how} ${evidence}`, confidence);
  }
  return { final_code_assessments: finals, discarded_code_assessments: discarded };
}

/** Synonym and title mentions of one sentence, each with the sentence's assertion over its words. */
function sentenceMentions(table: CodeTable, lex: CompiledLexicon, cfg: LevelConfig, words: string[], si: number): Found[] {
  const st = stemWords(words);
  const assertions = assertWords(words);
  const lexical = matchLexicon(lex, words, st, si);
  let described: Mention[];
  if (cfg.descriptions === 'exact') described = matchExactTitles(table, st, si, cfg);
  else {
    const extra: Array<[number, number, number]> = [];
    if (cfg.bridge) {
      // First stem position of each word, so a synonym's start maps to stem space in O(1).
      const firstStem = new Int32Array(words.length).fill(-1);
      for (let k = st.from.length - 1; k >= 0; k--) firstStem[st.from[k]] = k;
      for (const m of lexical) {
        const pos = Math.max(0, firstStem[m.start]);
        for (const id of table.index.requiredOf(m.code)) extra.push([id, pos, m.end]);
      }
    }
    const clauses = cfg.clauses ? ([clausesOf(words, CLAUSE_BREAKS), clausesOf(words, CONJUNCTIONS)] as const) : undefined;
    described = matchDescriptions(table, st, si, cfg, extra, clauses?.[0], clauses?.[1]);
  }
  return [...lexical, ...described].map((mention) => ({ mention, assertion: assertionOf(assertions, mention.start, mention.end) }));
}

const CLAUSE_BREAKS = new Set([',', ';', ':', '(', ')']);
const CONJUNCTIONS = new Set(['and', 'or', '/']);

/** Clause number of each word: commas, semicolons and brackets separate the items of a list. */
function clausesOf(words: readonly string[], breaks: ReadonlySet<string>): Int32Array {
  const out = new Int32Array(words.length);
  let c = 0;
  for (let i = 0; i < words.length; i++) {
    if (breaks.has(words[i].toLowerCase())) c++;
    out[i] = c;
  }
  return out;
}
