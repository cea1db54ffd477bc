import type { Hl7Context } from '@medplum/core';

/**
 * Control characters (DESIGN: U+0000-U+001F) a field must not carry, raw or from an `\X..\`
 * escape: 0x0B and 0x1C are MLLP's framing bytes, so one written out would end the frame early and
 * let what follows be read as messages of their own.
 */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\x00-\x1f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\x00-\x1f]/g;

/** An `\Xhh..\` escape that spells a control character: refused at intake (AE). */
export class ControlCharacterError extends Error {
  override readonly name = 'ControlCharacterError';
}

/**
 * HL7 v2 escape sequences (v2.5 chapter 2.7). @medplum/core 4.5 splits fields but leaves escapes
 * as sent, so text values pass through here: \F\ \S\ \T\ \R\ \E\ become the separators,
 * \.br\ a line break, \Xhh..\ the bytes it spells (never a control character: ControlCharacterError);
 * formatting commands (\H\, \N\, \.sp\, ...) are dropped.
 */
export function unescapeHl7(value: string, ctx: Hl7Context): string {
  const e = ctx.escapeCharacter;
  if (!e || !value.includes(e)) return value;
  const pattern = new RegExp(`${escapeRegExp(e)}([^${escapeRegExp(e)}]*)${escapeRegExp(e)}`, 'g');
  return value.replace(pattern, (_all, code: string) => {
    switch (code) {
      case 'F':
        return ctx.fieldSeparator;
      case 'S':
        return ctx.componentSeparator;
      case 'T':
        return ctx.subcomponentSeparator;
      case 'R':
        return ctx.repetitionSeparator;
      case 'E':
        return e;
      case '.br':
        return '\n';
      default:
        if (/^X([0-9A-Fa-f]{2})+$/.test(code)) {
          const decoded = Buffer.from(code.slice(1), 'hex').toString('utf8');
          if (CONTROL_CHARACTER.test(decoded)) throw new ControlCharacterError('an \\X..\\ escape spells a control character');
          return decoded;
        }
        return code.startsWith('.sp') ? '\n' : '';
    }
  });
}

/**
 * The reverse, for values Clinigate writes: the escape character first, then each separator;
 * a line break becomes \.br\ and any other control character is dropped, so no value can carry
 * a segment end or an MLLP framing byte into the message.
 */
export function escapeHl7(value: string, ctx: Hl7Context): string {
  const e = ctx.escapeCharacter;
  return value
    .split(e)
    .join(`${e}E${e}`)
    .split(ctx.fieldSeparator)
    .join(`${e}F${e}`)
    .split(ctx.componentSeparator)
    .join(`${e}S${e}`)
    .split(ctx.subcomponentSeparator)
    .join(`${e}T${e}`)
    .split(ctx.repetitionSeparator)
    .join(`${e}R${e}`)
    .replace(/\r\n|\r|\n/g, `${e}.br${e}`)
    .replace(CONTROL_CHARACTERS, '');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
