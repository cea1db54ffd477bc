import type { Candidates } from './candidate.js';
import { applyAcuteAndChronic } from './guidelines/acute-and-chronic.js';
import { applyCombinations } from './guidelines/combination.js';
import { applyDrugTherapy } from './guidelines/drugs.js';
import { applyDrugTable } from './guidelines/drug-table.js';
import { applyEtiologyPairs } from './guidelines/etiology.js';
import { applyIndexPartners } from './guidelines/index-partners.js';
import { applyCodeFirstNos } from './guidelines/code-first-nos.js';
import { applyExcludes1 } from './guidelines/excludes.js';
import { applyExcludes1Combinations } from './guidelines/excludes-combination.js';
import { applyWithParts } from './guidelines/with-parts.js';
import { applyExternalCauses } from './guidelines/external-cause.js';
import { applyTabularExcludes1 } from './guidelines/tabular-excludes.js';
import { applyBrokenDevice } from './guidelines/broken-device.js';
import { applyBurns } from './guidelines/burns.js';
import { applyAllergyStatus } from './guidelines/allergy-status.js';
import { applyExamEncounter } from './guidelines/exam-encounter.js';
import { applyPreoperativeExam } from './guidelines/preoperative-exam.js';
import { applySubstanceUse } from './guidelines/substance-use.js';
import { applyFeverChills } from './guidelines/fever.js';
import { applyHistory } from './guidelines/history.js';
import { applyNeoplasmTable } from './guidelines/neoplasm-table.js';
import { applyNeoplasmRelated } from './guidelines/neoplasm-related.js';
import { applyNeoplasmIndexSites } from './guidelines/neoplasm-index-site.js';
import { applyNeoplasmTreatmentEffects } from './guidelines/neoplasm-treatment.js';
import { applyNeoplasmEncounter } from './guidelines/neoplasm-encounter.js';
import { applyUnknownPrimary } from './guidelines/neoplasm-unknown-primary.js';
import { applyLymphNodeRegion } from './guidelines/neoplasm-lymph-region.js';
import { applyRemissionStated } from './guidelines/neoplasm-remission.js';
import { applyStatedOrganism } from './guidelines/organism.js';
import { applyOrganismNamed } from './guidelines/organism-named.js';
import { applyInjurySymptoms, applyIntegralSymptoms } from './guidelines/integral.js';
import { applyQualifiers } from './guidelines/qualifiers.js';
import { applyRemission } from './guidelines/remission.js';
import { applyAcuityOwner } from './guidelines/acuity-owner.js';
import { applyAgentAsCause } from './guidelines/organism-agent.js';
import { applyFamilyTitles } from './guidelines/family-title.js';
import { applyRelapse } from './guidelines/relapse.js';
import { applySequelae } from './guidelines/sequela.js';
import { applyPressureUlcers } from './guidelines/pressure-ulcer.js';
import { applyStatus } from './guidelines/status.js';
import { applyImplantPresence } from './guidelines/presence.js';
import { applyTobacco } from './guidelines/tobacco.js';
import { applyBmi } from './guidelines/bmi.js';
import { applySameWordsUnspecified } from './guidelines/same-words-unspecified.js';
import { applyUnspecifiedSiblings } from './guidelines/unspecified-sibling.js';
import { applyVaccination, applyVaccineRefusal } from './guidelines/vaccination.js';
import { sequenceCodes } from './guidelines/sequence.js';
import { applyPlannedVisits } from './guidelines/planned-visit.js';
import { applyFollowUp } from './guidelines/follow-up.js';
import { applyEncounterReason } from './guidelines/encounter-reason.js';
import { applyScreening } from './guidelines/screening.js';
import { applyExposure } from './guidelines/exposure.js';
import { applyUnspecifiedInjury } from './guidelines/unspecified-injury.js';
import { applyInjurySite } from './guidelines/injury-site.js';
import { applyPregnancy } from './guidelines/pregnancy.js';
import { applyNewbornRecord } from './guidelines/newborn-record.js';
import { applyPrenatalSupervision } from './guidelines/prenatal-supervision.js';
import { applyPregnancyConditions } from './guidelines/pregnancy-conditions.js';
import { applyStatedTrimester } from './guidelines/trimester.js';
import { applyLearnedRestated } from './guidelines/learned-restated.js';
import type { LevelConfig } from './levels.js';

/**
 * The ICD-10-CM Official Guidelines as rules over the candidate codes of one note, in the order a
 * coder applies them: what is current (history, tobacco, drugs), then combination codes, side and
 * acuity, symptoms integral to a diagnosis, the Excludes1 pairs, an unspecified code beside a
 * specific one, the codes the Tabular asks to add (BMI) and the encounter (Z23, Z28.2-, Z00), and
 * last the sequence of the codes chosen (guidelines/sequence.ts).
 */
export function applyGuidelines(cands: Candidates, cfg: LevelConfig): void {
  applyNeoplasmTable(cands);
  applyNeoplasmTreatmentEffects(cands);
  applyUnknownPrimary(cands);
  applyLymphNodeRegion(cands);
  applyRemissionStated(cands);
  applyNeoplasmRelated(cands);
  applyHistory(cands);
  applyFamilyTitles(cands);
  // After the history rule: a neoplasm it set aside as history (Z85) is not coded by its site.
  applyNeoplasmIndexSites(cands);
  applySequelae(cands);
  applyPressureUlcers(cands);
  applyStatus(cands);
  applyImplantPresence(cands);
  applyTobacco(cands);
  applyDrugTherapy(cands);
  applyAllergyStatus(cands);
  applySubstanceUse(cands);
  applyPregnancy(cands);
  applyPregnancyConditions(cands);
  applyPrenatalSupervision(cands);
  applyStatedTrimester(cands);
  applyNewbornRecord(cands);
  applyEtiologyPairs(cands);
  applyStatedOrganism(cands);
  applyOrganismNamed(cands);
  applyAgentAsCause(cands);
  applyCombinations(cands);
  applyAcuityOwner(cands);
  applyAcuteAndChronic(cands);
  applyRemission(cands);
  applyRelapse(cands);
  if (cfg.qualifiers) applyQualifiers(cands);
  applyFeverChills(cands);
  applyInjurySite(cands);
  applyUnspecifiedInjury(cands);
  applyLearnedRestated(cands);
  applyBrokenDevice(cands);
  applyBurns(cands);
  applyIntegralSymptoms(cands);
  applyInjurySymptoms(cands);
  applyExcludes1(cands);
  applyExcludes1Combinations(cands);
  applyTabularExcludes1(cands);
  // After the Excludes1 passes, which read a pair's combination from both parts.
  applyWithParts(cands);
  applyUnspecifiedSiblings(cands);
  applySameWordsUnspecified(cands);
  applyExternalCauses(cands);
  applyBmi(cands);
  applyEncounterReason(cands);
  applyScreening(cands);
  applyExposure(cands);
  applyPlannedVisits(cands);
  applyFollowUp(cands);
  // The examination is first-listed, the vaccine beside it (I.C.21.c.13).
  applyExamEncounter(cands);
  applyPreoperativeExam(cands);
  applyVaccination(cands);
  applyVaccineRefusal(cands);
  applyDrugTable(cands);
  applyIndexPartners(cands);
  applyCodeFirstNos(cands);
  applyNeoplasmEncounter(cands);
  sequenceCodes(cands);
}
