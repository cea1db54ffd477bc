import { describe, expect, it } from 'vitest';
import { rememberedCheck } from '../../src/lib/remembered-check.js';
import { centerSchema } from '../../src/modules/centers/centers.schema.js';

describe('rememberedCheck', () => {
  it('asks the check once per value and gives the same answers', () => {
    const asked: string[] = [];
    const check = rememberedCheck((v) => {
      asked.push(v);
      return v.startsWith('ok');
    });
    expect([check('ok-1'), check('bad'), check('ok-1'), check('bad'), check('ok-2')]).toEqual([true, false, true, false, true]);
    expect(asked).toEqual(['ok-1', 'bad', 'ok-2']);
  });

  it('stays bounded: past its size it starts again rather than growing', () => {
    let calls = 0;
    const check = rememberedCheck(() => (calls++, true), 3);
    for (const v of ['a', 'b', 'c', 'd', 'a']) check(v);
    expect(calls).toBe(5); // 'd' cleared the memory, so 'a' was asked again
  });
});

describe('center validation with remembered checks', () => {
  const center = {
    id: 'c1',
    name: 'C',
    address: { line: 'l', city: 'x', postalCode: '1', country: 'ES' },
    phone: '+34910000000',
    timezone: 'Europe/Madrid',
  };
  it('still refuses a bad time zone or phone however often it is sent', () => {
    for (let i = 0; i < 3; i++) {
      expect(centerSchema.safeParse(center).success).toBe(true);
      expect(centerSchema.safeParse({ ...center, timezone: 'Mars/Olympus' }).success).toBe(false);
      expect(centerSchema.safeParse({ ...center, timezone: 'EST' }).success).toBe(false);
      expect(centerSchema.safeParse({ ...center, phone: '+340' }).success).toBe(false);
    }
  });
});
