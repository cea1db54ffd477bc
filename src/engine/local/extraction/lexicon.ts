import { stem } from './nlp.js';

/** General clinical vocabulary used to score and classify sentences (stem-matched). */

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

export const SYMPTOMS = words(`pain painful ache aching hurt hurts hurting sore soreness swelling swollen fever
  fevers chills cough coughing nausea nauseous vomiting vomit diarrhea constipation headache headaches migraine
  dizziness dizzy lightheaded fatigue fatigued tired weakness weak numbness numb tingling palpitations rash itch
  itching itchy bleeding bruising bruise breath breathing wheezing congestion congested sneezing runny drainage
  discharge burning cramps cramping bloated bloating stiffness stiff spasm spasms tenderness tender pop popping
  clicking locking instability sweats sweating appetite insomnia sleep sleeping snoring anxiety anxious depressed
  depression mood stress stressed worry panic suicidal urination urinate urinary frequency urgency incontinence
  blurry vision hearing ringing tremor seizure fainting syncope injury injured fell fall twisted sprain
  swallowing heartburn reflux indigestion gas weight thirsty thirst sores lump lesion mass wound ulcer redness
  shortness tightness pressure throbbing sharp dull radiating radiates shooting burning`);

export const BODY = words(`head neck back spine shoulder shoulders arm arms elbow wrist hand hands finger fingers
  thumb hip hips knee knees ankle ankles foot feet toe toes leg legs thigh calf chest abdomen abdominal stomach
  belly pelvis pelvic groin eye eyes ear ears nose sinus sinuses throat mouth teeth tooth jaw skin heart lung
  lungs kidney kidneys liver bladder bowel colon breast prostate thyroid brain nerve muscle muscles joint joints
  bone bones tendon ligament meniscus rotator lumbar cervical thoracic extremity extremities`);

export const CONDITIONS = words(`diabetes diabetic hypertension hypertensive cholesterol hyperlipidemia heart
  failure asthma copd emphysema cancer tumor carcinoma arthritis osteoarthritis rheumatoid gout depression
  anxiety infection pneumonia bronchitis covid flu influenza thyroid hypothyroidism hyperthyroidism stroke
  fibrillation afib arrhythmia murmur anemia kidney disease obesity apnea allergies allergy allergic eczema
  psoriasis migraine hernia fracture sprain strain tear tendinitis bursitis sciatica neuropathy dementia
  hepatitis cirrhosis pancreatitis colitis crohn's ibs gerd ulcer polyps sepsis uti cellulitis lupus
  osteoporosis scoliosis stenosis disc herniated radiculopathy concussion melanoma lymphoma leukemia
  hypoglycemia hyperglycemia prediabetes chf cad ckd mi angina embolism thrombosis dvt`);

export const MED_WORDS = words(`medication medications medicine medicines meds mg milligrams milligram mcg micrograms
  units tablet tablets pill pills capsule dose doses dosage prescription prescribed prescribe refill refills
  inhaler insulin injection injections shot cream ointment patch drops spray supplement supplements vitamin
  vitamins antibiotic antibiotics steroid steroids prednisone ibuprofen advil motrin tylenol acetaminophen
  aspirin aleve naproxen lasix metformin lisinopril losartan amlodipine atorvastatin simvastatin
  rosuvastatin metoprolol carvedilol hydrochlorothiazide furosemide levothyroxine synthroid omeprazole
  pantoprazole gabapentin meloxicam mobic flexeril cyclobenzaprine tramadol oxycodone norco hydrocodone
  albuterol flonase zyrtec claritin benadryl sertraline zoloft lexapro escitalopram prozac fluoxetine
  wellbutrin bupropion xanax ambien eliquis xarelto coumadin warfarin plavix jardiance ozempic trulicity
  lantus humalog glipizide amoxicillin augmentin azithromycin doxycycline keflex cephalexin cipro bactrim
  protonix nexium prilosec zantac pepcid famotidine toradol celebrex lipitor crestor norvasc coreg`);

/** Drug-name endings common to generic names (lisinopril, losartan, metoprolol, ...). */
export const DRUG_SUFFIX =
  /\b[a-z]{3,}(pril|sartan|olol|dipine|statin|formin|azole|prazole|cillin|mycin|cycline|floxacin|tidine|gliptin|gliflozin|glutide|parin|xaban|triptan|azepam|zolam|oxetine|aline|afil|lukast|sone|olone|asone|profen|coxib|barb|ide)\b/;

export const DOSE =
  /\b\d+(?:\.\d+)?\s*(?:mg|milligrams?|mcg|micrograms?|units?|ml|milliliters?|grams?|g|puffs?|tablets?|pills?|capsules?)\b/i;

export const EXAM = words(`exam examination examine palpation palpate tenderness tender range motion murmur
  crackles rales wheezes wheezing rhonchi edema clear auscultation regular rhythm reflexes strength sensation
  pulses pulse erythema effusion bruit appreciate appreciated noted normal abnormal swelling ecchymosis
  bruising laxity positive negative intact distention distended soft nontender guarding rebound lesions
  neurovascularly flexion extension rotation gait inspection visible alert oriented`);

export const VITALS =
  /\b(blood pressure|bp|heart rate|pulse|temperature|temp|fever of|oxygen|o2|sat(uration)?s?|respiratory rate|respirations|(?<!bear |put |bearing )weight(?! bearing)|bmi|vital signs|vitals)\b/i;

export const RESULTS = words(`x-ray x-rays xray xrays mri ct scan scans ultrasound echocardiogram echo ekg ecg
  lab labs bloodwork results result a1c hemoglobin biopsy culture cultures panel level levels cbc cmp
  lipid urinalysis mammogram colonoscopy radiograph radiographs imaging test tests showed shows revealed
  reveals demonstrates demonstrated ejection fraction creatinine potassium sodium glucose tsh pathology phq phq-9
  gad gad-7 score`);

export const SMALL_TALK =
  /\b(weather|halloween|thanksgiving|christmas|holidays?|vacation|weekend|football|baseball|basketball game|team|movie|nice to (?:meet|see)|good to see|how are you|how's it going|how are things|thank you|thanks|bye|excuse me|sorry|take care|have a (?:good|great|nice)|nice day|pleasure|dax|dragon)\b/i;

/** Word forms that only matter as fillers or conversation management. */
export const ACKNOWLEDGEMENT =
  /^(?:yes|yeah|yep|no|nope|okay|ok|sure|right|alright|all right|mm-?hmm|uh-huh|perfect|great|good|fine|thanks?|thank you|got it|i see|sounds good|that's right|correct|exactly|absolutely|definitely|of course|not really|i guess|i think so|i do|i don't|i have|i haven't|i am|i'm not)[.!?]?$/i;

const toStems = (list: string[]) => new Set(list.map((w) => stem(w)));
let stemSets: Record<'symptom' | 'body' | 'condition' | 'med' | 'exam' | 'result', Set<string>> | undefined;

/** Stemmed vocabularies, built on first use. */
export function lexicon() {
  stemSets ??= {
    symptom: toStems(SYMPTOMS),
    body: toStems(BODY),
    condition: toStems(CONDITIONS),
    med: toStems(MED_WORDS),
    exam: toStems(EXAM),
    result: toStems(RESULTS),
  };
  return stemSets;
}

// Generic words ("medication", "pill") name no drug; names and generic-name endings do. The
// endings leave out the short ones that also end ordinary words ("inside", "cone").
const GENERIC_MED = new Set([
  'medication',
  'medications',
  'medicine',
  'medicines',
  'meds',
  'pill',
  'pills',
  'tablet',
  'tablets',
  'dose',
  'doses',
  'dosage',
  'prescription',
  'prescribed',
  'prescribe',
  'refill',
  'refills',
  'supplement',
  'supplements',
  'shot',
  'patch',
  'drops',
  'spray',
  'cream',
  'mg',
  'milligrams',
  'milligram',
  'mcg',
  'micrograms',
  'units',
  'capsule',
  'injection',
  'injections',
  'ointment',
  'vitamin',
  'vitamins',
  'antibiotic',
  'antibiotics',
  'steroid',
  'steroids',
  'inhaler',
]);
const DRUG_NAMES = new Set(MED_WORDS.filter((w) => !GENERIC_MED.has(w)));
const DRUG_NAME =
  /^[a-z]{3,}(?:pril|sartan|olol|dipine|statin|formin|prazole|cillin|mycin|cycline|floxacin|tidine|gliptin|gliflozin|glutide|parin|xaban|triptan|azepam|zolam|oxetine|profen|coxib|traline|pam|pine|done)$/;

/** The drug names among lower-case words. */
export function drugNames(words: string[]): string[] {
  return words.filter((w) => DRUG_NAMES.has(w) || DRUG_NAME.test(w));
}
