import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/canonical-json.js';

describe('canonical JSON (the Idempotency-Key request hash)', () => {
  it('sorts keys at every level, whatever the order or spacing they came in', () => {
    const a = JSON.parse('{"b": 1, "a": {"d": [3, {"z": null, "y": "x"}], "c": true}}');
    const b = JSON.parse('{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson(a)).toBe('{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
  });

  it('leaves out undefined members, keeps array holes as null, escapes as JSON.stringify does', () => {
    expect(canonicalJson({ b: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
    expect(canonicalJson({ é: 'ü\u0000"\\', '10': '\ud800', '9': 2 })).toBe(`{"10":"\\ud800","9":2,"é":"ü\\u0000\\"\\\\"}`);
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
