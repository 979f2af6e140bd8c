/** The keyboard layouts of Buddy's layout correction: every code of Manticore's list, each key once. */
import { describe, expect, it } from 'vitest';
import { ALL_LAYOUTS, KEY_COUNT, layoutKeyCount, layoutVariants, parseLayouts } from '../../../../src/engine/suggest/keyboard-layouts.js';

describe('keyboard layouts', () => {
  it("has Manticore's 17 codes, each covering every key", () => {
    expect([...ALL_LAYOUTS].sort()).toEqual(['be', 'bg', 'br', 'ch', 'de', 'dk', 'es', 'fr', 'gr', 'it', 'no', 'pt', 'ru', 'se', 'ua', 'uk', 'us']);
    for (const code of ALL_LAYOUTS) expect(layoutKeyCount(code)).toBe(KEY_COUNT);
  });

  it('retypes a word key by key, case kept (the manual: ghbdtn is привет)', () => {
    expect(layoutVariants('ghbdtn', ['us', 'ru'])).toEqual(['привет']);
    expect(layoutVariants('Ghbdtn', ['us', 'ru'])).toEqual(['Привет']);
    expect(layoutVariants('привет', ['us', 'ru'])).toEqual(['ghbdtn']);
    expect(layoutVariants('zeit', ['us', 'de'])).toEqual(['yeit']);
  });

  it("reads a list; one code alone or an unknown one is an error", () => {
    expect(parseLayouts('')).toEqual([]);
    expect(parseLayouts('us, RU')).toEqual(['us', 'ru']);
    expect(() => parseLayouts('us')).toThrow('At least two languages are required in layouts');
    expect(() => parseLayouts('us,xx')).toThrow("Unsupported layout 'xx'");
  });
});
