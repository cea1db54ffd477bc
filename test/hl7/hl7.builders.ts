import { randomUUID } from 'node:crypto';

/** Real-shaped HL7 v2.5 messages, segments joined with CR. */
export interface Hl7Sender {
  app: string;
  facility: string;
}

const stamp = '20261124093000';

/** A segment from its numbered fields (HL7 numbering: field n is the n-th after the name). */
function seg(name: string, fields: Record<number, string>): string {
  const last = Math.max(...Object.keys(fields).map(Number));
  const values = Array.from({ length: last }, (_, i) => fields[i + 1] ?? '');
  return [name, ...values].join('|');
}
export const newControlId = () => `C${randomUUID().replace(/-/g, '').slice(0, 19)}`;

function msh(s: Hl7Sender, type: string, controlId: string, charset = '') {
  // MSH-1 is the field separator itself: key n here is MSH-(n+1) (2: MSH-3, 9: MSH-10, 17: MSH-18).
  return seg('MSH', {
    1: '^~\\&',
    2: s.app,
    3: s.facility,
    4: 'CLINIGATE',
    5: 'CLINIGATE',
    6: stamp,
    8: type,
    9: controlId,
    10: 'P',
    11: '2.5',
    14: 'AL',
    15: 'NE',
    17: charset,
  });
}

/** The visit of the test transcript, 40 lines: a pneumonia visit, speaker-tagged like ACI-Bench. */
export function transcriptLines(n = 40): string[] {
  const visit = [
    '[doctor] hi, what brings you in today?',
    "[patient] i've had a cough and a fever for three days.",
    '[doctor] any chest pain?',
    '[patient] no chest pain.',
    '[doctor] your temperature is 38.4 and lungs have crackles on the right.',
    '[doctor] this looks like community acquired pneumonia. i will start amoxicillin 1 gram three times a day and see you in one week.',
  ];
  const lines = [...visit];
  while (lines.length < n) lines.splice(lines.length - 2, 0, `[patient] the cough is worse at night, line ${lines.length + 1}.`);
  return lines.slice(0, n);
}

export interface MdmOptions {
  controlId?: string;
  patient?: string;
  doctor?: string;
  visit?: string;
  facility?: string;
  lines?: string[];
  documentType?: string;
  charset?: string;
}

export function mdmT02(s: Hl7Sender, o: MdmOptions = {}) {
  const controlId = o.controlId ?? newControlId();
  const lines = o.lines ?? transcriptLines();
  const segments = [
    msh(s, 'MDM^T02^MDM_T02', controlId, o.charset),
    `EVN|T02|${stamp}`,
    `PID|1||${o.patient ?? 'MRN-1001'}^^^HOSP^MR~999-00-1234^^^SSA^SS||Doe^Jane||19700101|F`,
    seg('PV1', { 1: '1', 2: 'O', 3: `CLINIC^101^1^${o.facility ?? ''}`, 7: `${o.doctor ?? 'DR42'}^House^Greg`, 19: o.visit ?? 'V-77' }),
    seg('TXA', {
      1: '1',
      2: o.documentType ?? 'SOAP',
      3: 'TX',
      4: stamp,
      5: `${o.doctor ?? 'DR42'}^House^Greg`,
      9: `${o.doctor ?? 'DR42'}^House^Greg`,
      12: `DOC-${controlId}`,
      17: 'AU',
    }),
    ...lines.map((line, i) => `OBX|${i + 1}|TX|TRANSCRIPT^Visit transcript^L||${line}||||||F`),
  ];
  return { controlId, text: segments.join('\r') };
}

export function oruR01(s: Hl7Sender, o: MdmOptions & { base64?: boolean } = {}) {
  const controlId = o.controlId ?? newControlId();
  const lines = o.lines ?? transcriptLines(12);
  const obx = o.base64
    ? [`OBX|1|ED|TRANSCRIPT^Visit transcript^L||^TEXT^PLAIN^Base64^${Buffer.from(lines.join('\n')).toString('base64')}||||||F`]
    : [`OBX|1|FT|TRANSCRIPT^Visit transcript^L||${lines.join('\\.br\\')}||||||F`];
  const segments = [
    msh(s, 'ORU^R01^ORU_R01', controlId, o.charset),
    `PID|1||${o.patient ?? 'MRN-2002'}^^^HOSP^MR||Roe^Rick`,
    seg('PV1', { 1: '1', 2: 'O', 3: `CLINIC^102^1^${o.facility ?? ''}`, 19: o.visit ?? 'V-88' }),
    seg('OBR', { 1: '1', 2: 'ORD-1', 3: 'FIL-1', 4: 'TRANSCRIPT^Visit transcript^L', 7: stamp, 16: `${o.doctor ?? 'DR7'}^Wilson^James` }),
    ...obx,
  ];
  return { controlId, text: segments.join('\r') };
}

export function adtA04(s: Hl7Sender, o: MdmOptions = {}) {
  const controlId = o.controlId ?? newControlId();
  const segments = [
    msh(s, 'ADT^A04^ADT_A01', controlId),
    `EVN|A04|${stamp}`,
    `PID|1||${o.patient ?? 'MRN-3003'}^^^HOSP^MR||O'Brien^Ann||19800202|F`,
    seg('PV1', { 1: '1', 2: 'O', 3: `CLINIC^103^1^${o.facility ?? ''}`, 7: 'DR9^Cuddy^Lisa', 19: o.visit ?? 'V-99' }),
  ];
  return { controlId, text: segments.join('\r') };
}
