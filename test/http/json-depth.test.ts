import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.js';

const bytes = (text: string) => Buffer.from(text);
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nestsDeeperThan (the 64-level limit on JSON bodies)', () => {
  it('lets 64 levels through and refuses 65, with arrays and objects alike', () => {
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1)))).toBe(true);
  });

  it('counts depth, not brackets: many shallow ones pass', () => {
    expect(nestsDeeperThan(bytes(`[${Array.from({ length: 500 }, () => '{"a":[1]}').join(',')}]`))).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ note: '['.repeat(200), quoted: '\\"[[[' + '{'.repeat(100) })))).toBe(false);
    expect(nestsDeeperThan(bytes(`["\\"", ${nested(MAX_JSON_DEPTH)}]`))).toBe(true);
  });

  it('an ordinary webhook body is not deep', () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ id: 'e1', type: 'center.upserted', data: { address: { city: 'Madrid' } } })))).toBe(
      false,
    );
  });
});
