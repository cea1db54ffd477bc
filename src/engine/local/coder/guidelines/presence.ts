import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { phraseStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import { type Candidates, sentencesMatching } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import { bestSubterms, type Subterm, walkSubterms } from './index-subterms.js';
import { saysStatus, spansOf, statedIn, wordsPattern } from './status.js';

// Implants and grafts (I.C.21.c.3): Z95-Z97, as the Index's "Presence (of)" and "Replacement by
// artificial or mechanical device or prosthesis of" subterms name them.
const IMPLANT = /^Z9[5-7]/;
const PRESENCE = 'presence';
const REPLACEMENT = 'replacement by artificial or mechanical device or prosthesis of';

interface Implants {
  list: Subterm[];
  /** the stems that name a device: the last words of the Presence titles, and "replacement" */
  devices: ReadonlySet<string>;
  /** the words that name a device in the list, as one pattern over the note's text */
  words: RegExp;
}

const cache = new WeakMap<IndexTabular, Implants>();

/**
 * The coded subterms of "Presence (of)" (three levels) and of "Replacement by ... of" (two, its
 * `see` followed to the Presence code): each stated by its title with the words above it as
 * support, or with its device word given as one of its nonessential modifiers ("hip-joint
 * implant (functional) (prosthesis)": a hip prosthesis). A replacement is stated with the word
 * "replacement". Read once per Index.
 */
function implantsOf(it: IndexTabular): Implants {
  let out = cache.get(it);
  if (out) return out;
  const list: Subterm[] = [];
  const devices = new Set<string>(['replacement']);
  const [replacementWord] = phraseStems('replacement');
  // The devices the Index names: a word that ends three titles of "Presence (of)" or more
  // ("implant", "device", "stent", "pacemaker"), and the words of "Replacement by artificial or
  // mechanical device or prosthesis of".
  const ends = new Map<string, number>();
  for (const root of it.mainTerms(PRESENCE))
    for (let t = root + 1; t < it.end[root]; t++) {
      const title = phraseStems(it.titleOf(t));
      if (title.length) ends.set(title[title.length - 1], (ends.get(title[title.length - 1]) ?? 0) + 1);
    }
  const heads = new Set([...phraseStems(REPLACEMENT), ...[...ends].filter(([, n]) => n >= 3).map(([w]) => w)]);
  for (const [main, depth] of [
    [PRESENCE, 3],
    [REPLACEMENT, 2],
  ] as const) {
    for (const root of it.mainTerms(main)) {
      walkSubterms(it, root, depth, (t, title, above) => {
        const target = it.codeOf(t) ? t : it.seeOf(t) ? it.resolvePath(it.seeOf(t)) : undefined;
        const code = target === undefined ? '' : it.codeOf(target);
        if (!IMPLANT.test(code) || title.length === 0) return;
        const alts = [main === REPLACEMENT ? [...title, replacementWord] : title];
        // A one-word modifier that names a device ("(prosthesis)", not "(functional)") names this
        // one another way: the site (the title's first word) with it.
        for (const m of it.nemodOf(t).matchAll(/\(([a-z]+)\)/gi)) {
          const [word] = phraseStems(m[1]);
          if (word && title.length > 1 && heads.has(word)) {
            alts.push([title[0], word]);
            devices.add(m[1].toLowerCase().slice(0, -1));
          }
        }
        if (main === PRESENCE) devices.add(it.titleOf(t).toLowerCase().split(/[\s-]/).pop()!.slice(0, -1));
        list.push({ code, alts, above: above() });
      });
    }
  }
  const names = [...devices].filter((w) => w.length >= 4).map((w) => w.replace(/[^a-z]/g, ''));
  out = { list, devices: heads, words: wordsPattern(names) };
  cache.set(it, out);
  return out;
}

/**
 * An implant or graft the note says the patient has ("cardiac pacemaker in place", "status post
 * left hip replacement", "hip prosthesis since 2019"): its presence code by the Index's subterm,
 * completed with the side stated (Z96.64-: left, Z96.642), unless the sentence speaks of placing
 * it now, of a visit for it or of its complication (coded otherwise).
 */
export function applyImplantPresence(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  const { list, devices, words } = implantsOf(it);
  for (const s of sentencesMatching(cands.ctx, words)) {
    if (!saysStatus(s.lower)) continue;
    const said = statedIn(s, 0, s.lower.length - 1);
    const assertions = assertWords(s.words);
    const present = new Set([...said.keys(), ...(cands.ctx.defaults ?? [])]);
    for (const found of bestSubterms(list, said)) {
      // The device and what it is (a site, a kind), in words of their own: "stent" alone may be
      // another's, "coronary artery" alone is no graft; unless one word states a whole title of
      // both ("pacemaker", read as the heart's: "cardiac pacemaker").
      if (
        (new Set(found.words).size < 2 && !statesWholeTitle(list, found.code, said, found.words[0])) ||
        !found.words.some((w) => [...said].some(([stem, at]) => at === w && devices.has(stem))) ||
        found.words.some((w) => assertions[w] !== 'present' && assertions[w] !== 'historical')
      )
        continue;
      const index = completeCode(table, found.code, { present, negated: new Set() });
      if (index === undefined) continue;
      cands.assign(
        table.codeAt(index),
        'an implant or graft the patient has, a status (I.C.21.c.3; Index: Presence (of))',
        [],
        spansOf(s, found.words),
      );
    }
  }
}

/** Whether the word at `at` alone states a title of two words or more of a subterm coded `code`. */
function statesWholeTitle(list: readonly Subterm[], code: string, said: ReadonlyMap<string, number>, at: number): boolean {
  return list.some((t) => t.code === code && t.alts.some((alt) => alt.length >= 2 && alt.every((w) => said.get(w) === at)));
}
