import { describe, expect, it } from 'vitest';
import { cleanLabel, findUnsafeValue, MAX_JSON_DEPTH, replaceControlCharacters, storableJson, storableText, unstorableTextReason } from '@/lib/text/clean';

describe('names and labels', () => {
  it('replaces each run of C0 (but tab), DEL and C1 controls with one space', () => {
    expect(replaceControlCharacters('evil\r\nX-Injected: 1')).toBe('evil X-Injected: 1');
    expect(replaceControlCharacters('a\u0000\u0001\u001fb\u007fc\u0080\u009fd')).toBe('a b c d');
    expect(replaceControlCharacters('tab\tkept, é and 中文 too\u00a0')).toBe('tab\tkept, é and 中文 too\u00a0');
    expect(cleanLabel('\r\n  Report 2024\u0007 ')).toBe('Report 2024');
  });
});

describe('values the database cannot store', () => {
  it('names NUL characters and unpaired surrogates, and accepts paired ones', () => {
    expect(unstorableTextReason('a\u0000')).toMatch(/NUL/);
    expect(unstorableTextReason('\ud800x')).toMatch(/surrogate/);
    expect(unstorableTextReason('x\udc00')).toMatch(/surrogate/);
    expect(unstorableTextReason('emoji 😀 fine')).toBeNull();
  });

  it('finds the first unsafe string or key with its path, and nesting past the limit', () => {
    expect(findUnsafeValue({ a: [{ b: 'ok' }, { c: 'x\u0000' }] }, '')).toEqual({ field: 'a.1.c', reason: expect.stringMatching(/NUL/) });
    expect(findUnsafeValue({ meta: { 'k\ud800': 1 } }, '')).toEqual({ field: 'meta.k\ud800', reason: expect.stringMatching(/^key .*surrogate/) });
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = [deep];
    expect(findUnsafeValue(deep, 'body')).toBeNull();
    expect(findUnsafeValue([deep], 'body')?.reason).toMatch(/nested too deeply/);
    let veryDeep: unknown = 1;
    for (let i = 0; i < 100_000; i++) veryDeep = { a: veryDeep };
    expect(findUnsafeValue(veryDeep, '')?.reason).toMatch(/nested too deeply/);
    expect(findUnsafeValue({ n: 1, b: true, z: null, s: 'fine' }, '')).toBeNull();
  });

  it('makes document text storable: NUL dropped, unpaired surrogates replaced, keys included', () => {
    expect(storableText('a\u0000b\ud800c😀')).toBe('ab\ufffdc😀');
    expect(storableJson({ title: 'x\u0000', 'k\u0000': ['\udc00', 3, null] })).toEqual({ title: 'x', k: ['\ufffd', 3, null] });
    const clean = { title: 'same' };
    expect(storableJson(clean)).toEqual(clean);
  });
});
