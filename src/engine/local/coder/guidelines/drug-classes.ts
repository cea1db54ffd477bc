/**
 * Common drugs the FY2026 Table of Drugs and Chemicals lists only by their class (guideline
 * I.C.19.e: "if a drug is not listed, code by its class"), each class as the WHO ATC
 * classification names it (public, https://atcddd.fhi.no/atc_ddd_index/) and the Table row of
 * that class. The codes come from the Table's row; a drug the Table names itself is read there.
 */
export const DRUG_CLASSES: ReadonlyArray<{ atc: string; row: string; drugs: readonly string[] }> = [
  {
    atc: 'N06AB selective serotonin reuptake inhibitors',
    row: 'Antidepressant, selective serotonin reuptake inhibitor',
    drugs: ['sertraline', 'escitalopram', 'paroxetine', 'vortioxetine'],
  },
  {
    atc: 'N06AX other antidepressants (serotonin-norepinephrine reuptake inhibitors)',
    row: 'Antidepressant, selective serotonin norepinephrine reuptake inhibitor',
    drugs: ['duloxetine', 'desvenlafaxine', 'levomilnacipran'],
  },
  { atc: 'B01AF direct factor Xa inhibitors', row: 'Anticoagulant NEC', drugs: ['apixaban', 'rivaroxaban', 'edoxaban'] },
  { atc: 'B01AE direct thrombin inhibitors', row: 'Anticoagulant NEC', drugs: ['dabigatran'] },
  { atc: 'B01AC platelet aggregation inhibitors excl. heparin', row: 'Antithrombotic', drugs: ['clopidogrel', 'ticagrelor', 'prasugrel'] },
  {
    atc: 'C09CA angiotensin II receptor blockers (ARBs), plain',
    row: 'Antihypertensive drug NEC',
    drugs: ['losartan', 'valsartan', 'irbesartan', 'olmesartan', 'candesartan', 'telmisartan'],
  },
  { atc: 'C07A beta blocking agents', row: 'beta adrenergic blocking agent, heart', drugs: ['carvedilol', 'nebivolol'] },
  { atc: 'C08CA dihydropyridine derivatives', row: 'Blockers, calcium channel', drugs: ['amlodipine', 'felodipine'] },
  { atc: 'C10AA HMG CoA reductase inhibitors', row: 'Antihyperlipidemic drug', drugs: ['atorvastatin', 'rosuvastatin', 'pitavastatin'] },
  { atc: 'C10AX other lipid modifying agents', row: 'Antihyperlipidemic drug', drugs: ['ezetimibe'] },
  {
    atc: 'A10B blood glucose lowering drugs, excl. insulins',
    row: 'Antidiabetic NEC',
    drugs: [
      'glimepiride',
      'sitagliptin',
      'linagliptin',
      'saxagliptin',
      'alogliptin',
      'empagliflozin',
      'dapagliflozin',
      'canagliflozin',
      'ertugliflozin',
      'pioglitazone',
      'liraglutide',
      'semaglutide',
      'dulaglutide',
      'exenatide',
    ],
  },
  {
    atc: 'N03AX other antiepileptics',
    row: 'Anticonvulsant, specified NEC',
    drugs: ['levetiracetam', 'lamotrigine', 'topiramate', 'lacosamide', 'zonisamide', 'brivaracetam'],
  },
  {
    atc: 'N05AH, N05AX antipsychotics (diazepines, other)',
    row: 'Antipsychotic drug, specified NEC',
    drugs: ['quetiapine', 'risperidone', 'aripiprazole', 'ziprasidone', 'lurasidone', 'paliperidone', 'brexpiprazole', 'cariprazine'],
  },
  {
    atc: 'A02BC proton pump inhibitors',
    row: 'Anti-gastric-secretion drug NEC',
    drugs: ['pantoprazole', 'esomeprazole', 'lansoprazole', 'rabeprazole', 'dexlansoprazole'],
  },
  { atc: 'C03CA sulfonamides, plain (loop diuretics)', row: 'Diuretic NEC, loop', drugs: ['torsemide'] },
  { atc: 'J01MA fluoroquinolones', row: 'Fluoroquinolone antibiotics', drugs: ['levofloxacin', 'moxifloxacin'] },
  { atc: 'M01AC oxicams, M01AH coxibs', row: 'Anti-inflammatory drug NEC, nonsteroidal NEC', drugs: ['meloxicam', 'celecoxib'] },
];
