import iconv from 'iconv-lite';

/**
 * MSH-18 character set names (HL7 table 0211) as iconv-lite encodings. A message without MSH-18
 * is read as UTF-8, the common modern default (strictly HL7 says ASCII, which UTF-8 contains).
 * UTF-16 and UTF-32 are left out on purpose: their bytes can hold 0x0B and 0x1C, which MLLP
 * framing forbids inside a message, so they cannot travel over MLLP (answered AR).
 */
const CHARSETS: Record<string, string> = {
  ASCII: 'ascii',
  '8859/1': 'latin1',
  '8859/2': 'iso-8859-2',
  '8859/3': 'iso-8859-3',
  '8859/4': 'iso-8859-4',
  '8859/5': 'iso-8859-5',
  '8859/6': 'iso-8859-6',
  '8859/7': 'iso-8859-7',
  '8859/8': 'iso-8859-8',
  '8859/9': 'iso-8859-9',
  '8859/15': 'iso-8859-15',
  'UNICODE UTF-8': 'utf8',
  'ISO IR100': 'latin1',
  'ISO IR192': 'utf8',
  'ISO IR6': 'ascii',
  'ISO IR87': 'euc-jp',
  'ISO IR159': 'euc-jp',
  'SHIFT JIS': 'shift_jis',
  'GB 18030-2000': 'gb18030',
  'KS X 1001': 'euc-kr',
  'CNS 11643-1992': 'big5',
  'BIG-5': 'big5',
  WINDOWS1252: 'windows-1252',
};

export class UnknownCharsetError extends Error {}

/** The iconv-lite encoding MSH-18 names; throws for one it does not know. */
export function encodingForCharset(msh18: string): string {
  const name = msh18.split('~')[0].trim().toUpperCase();
  if (name === '') return 'utf8';
  const encoding = CHARSETS[name];
  if (!encoding || !iconv.encodingExists(encoding)) throw new UnknownCharsetError(`MSH-18 character set ${name} is not supported`);
  return encoding;
}

/** The message's text in the encoding its MSH-18 names (hl7-header.ts reads it). */
export function decodeHl7(bytes: Buffer, encoding: string): string {
  return iconv.decode(bytes, encoding);
}

export function encodeHl7(text: string, encoding = 'utf8'): Buffer {
  return iconv.encode(text, encoding);
}
