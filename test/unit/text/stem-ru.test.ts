import { describe, expect, it } from 'vitest';
import { stemRu } from '../../../src/text/stem-ru.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

describe('stemRu', () => {
  it('removes noun, adjective and verb endings', () => {
    expect(stemRu('шины')).toBe('шин');
    expect(stemRu('зимние')).toBe('зимн');
    expect(stemRu('столами')).toBe('стол');
    expect(stemRu('красивая')).toBe('красив');
    expect(stemRu('работать')).toBe('работ');
    expect(stemRu('играться')).toBe('игр');
    expect(stemRu('сделавшись')).toBe('сдел');
  });

  it('applies the later steps: superlative, double n, soft sign, -ость in R2', () => {
    expect(stemRu('важнейшие')).toBe('важн');
    expect(stemRu('длинный')).toBe('длин');
    expect(stemRu('любовь')).toBe('любов');
    expect(stemRu('мудрость')).toBe('мудрост');
  });

  it("removes Sphinx's diminutive suffixes", () => {
    expect(stemRu('кошечка')).toBe('коше');
  });

  it('leaves words without a vowel, short words and words ending in ASCII alone', () => {
    expect(stemRu('я')).toBe('я');
    expect(stemRu('тст')).toBe('тст');
    expect(stemRu('шиныs')).toBe('шиныs');
    expect(stemRu('hello')).toBe('hello');
  });

  it('stems only the part after the last ASCII character', () => {
    expect(stemRu('abcшины')).toBe('abcшин');
  });
});

describe("morphology='stem_ru, stem_en'", () => {
  it('stems each word with the first stemmer that changes it', () => {
    const p = createTextPipeline({ morphology: 'stem_ru, stem_en' });
    expect(p.indexField('зимние шины running').terms).toEqual(['зимн', 'шин', 'run']);
    expect(createTextPipeline({ morphology: 'stem_enru' }).normalizeWord('шины')).toEqual(['шин']);
  });
});
