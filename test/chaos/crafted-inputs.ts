import { buildPagesPdf, buildPdf, textContent } from '../helpers/pdf.js';

/**
 * Inputs crafted against text parsers: runs that make overlapping patterns backtrack, huge
 * tokens, floods of speaker tags and brackets, awkward unicode. Each stays under the 50 KB note
 * limit so that every route takes it.
 */
export const CRAFTED: Array<{ name: string; text: string }> = [
  { name: '"[" + 2,500 spaces + "!x" (issue 16)', text: '[' + ' '.repeat(2_500) + '!x' },
  { name: '"[" + 45,000 spaces + "!x"', text: '[' + ' '.repeat(45_000) + '!x' },
  { name: 'nested brackets 20,000 deep', text: '['.repeat(20_000) + ']'.repeat(20_000) },
  { name: '"[ " x 20,000 (unclosed tags)', text: '[ '.repeat(20_000) },
  { name: 'speaker tags x 5,000 on one line', text: '[doctor] [patient] '.repeat(2_500) },
  { name: 'tagged lines x 8,000', text: '[doctor] ok\n[patient] no\n'.repeat(2_000) },
  { name: '"doctor" + 45,000 spaces (prefix)', text: 'doctor' + ' '.repeat(45_000) + '.x' },
  { name: '"[inaudible" x 4,500', text: '[inaudible'.repeat(4_500) },
  { name: '50 KB single token', text: 'a'.repeat(50_000) },
  { name: '50 KB of digits and dots', text: '1.'.repeat(25_000) },
  { name: 'punctuation runs', text: '!?.;,:-/()'.repeat(5_000) },
  { name: 'hyphen-joined word of 50 KB', text: 'a-'.repeat(25_000) },
  { name: 'spaces and tabs', text: ' \t'.repeat(25_000) + 'x' },
  { name: 'line breaks only', text: '\n'.repeat(25_000) + '\r'.repeat(25_000) },
  { name: 'negation triggers x 16,000', text: 'no denies without '.repeat(2_800) },
  { name: 'numbers and units', text: '120/80 mmHg 38.4 C 5 mg '.repeat(2_000) },
  { name: 'emoji x 12,000', text: '🩺'.repeat(12_000) },
  { name: 'combining marks', text: 'e\u0301\u0302\u0303'.repeat(6_000) },
  { name: 'zero-width and bidi controls', text: '\u200b\u202e\u2066x'.repeat(5_000) },
  { name: 'capitalised sentence starts', text: 'A. B. C. D. '.repeat(4_000) },
  { name: '"patient said " x 3,900 (intent patterns)', text: 'patient said '.repeat(3_900) },
  { name: '"write a note " x 3,900', text: 'write a note '.repeat(3_900) },
  // Issue 29's patterns: spoken numbers, diagnosis frames, utterance cuts, two-word stutters.
  { name: '"one hundred and " x 3,000 (spoken numbers)', text: 'one hundred and '.repeat(3_000) },
  { name: '"point one " x 4,000', text: 'point one '.repeat(4_000) },
  { name: '"that is " x 5,000 then a word (diagnosis frame)', text: 'that is '.repeat(5_000) + 'x' },
  { name: '"your a " x 5,000 (diagnosis frame)', text: 'your a '.repeat(5_000) },
  { name: '59-letter word pairs x 400 (two-word stutters)', text: ('a'.repeat(59) + ' ' + 'a'.repeat(59) + 'b ').repeat(400) },
  { name: '"do you any is there " x 2,000 (question cuts)', text: 'do you any is there '.repeat(2_000) },
];

export interface CraftedPdf {
  name: string;
  pdf: Buffer;
  /** The answers the DESIGN allows for it. */
  expect: number[];
}

export function craftedPdfs(): CraftedPdf[] {
  const line = 'Community acquired pneumonia, treated with amoxicillin. '.repeat(2);
  return [
    {
      name: 'PDF inflating to 2.5 MB of text (70 KB)',
      pdf: buildPagesPdf(450, textContent(Array.from({ length: 50 }, () => line)), { deflate: true }),
      expect: [413],
    },
    { name: 'PDF of 501 pages', pdf: buildPagesPdf(501, textContent(['x'])), expect: [413] },
    { name: 'PDF with a crafted text line', pdf: buildPdf(['[' + ' '.repeat(2_500) + '!x', '('.repeat(5_000)]), expect: [200] },
    {
      name: 'PDF with a 1 MB deflated content stream of operators',
      pdf: buildPagesPdf(1, 'BT /F1 12 Tf ' + '0 0 Td '.repeat(150_000) + 'ET', { deflate: true }),
      expect: [200],
    },
    {
      name: 'PDF with a broken cross-reference table',
      pdf: Buffer.from(
        buildPdf(['Hypertension.'])
          .toString('latin1')
          .replace(/xref[\s\S]*startxref/, 'xref\n0 99\nstartxref'),
        'latin1',
      ),
      expect: [200, 422],
    },
  ];
}
