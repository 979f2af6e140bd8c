// Text settings read their files through the host's TextFiles: a page's embedded copies work like Node's fs.
import { afterEach, describe, expect, it } from 'vitest';
import { baseName, dirName, isAbsolutePath, joinPath, setTextFiles, textFiles, type TextFiles } from '../../../src/text/text-files.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

const mapFiles = (files: Record<string, string>): TextFiles => ({
  exists: (p) => p in files,
  read: (p) => { if (!(p in files)) throw new Error(`no ${p}`); return files[p]; },
  list: (d) => Object.keys(files).filter((p) => dirName(p) === d).map(baseName),
});

describe('text files', () => {
  const node = textFiles();
  afterEach(() => { setTextFiles(node); });

  it('POSIX path helpers', () => {
    expect(baseName('/a/b/c.txt')).toBe('c.txt');
    expect(dirName('/a/b/c.txt')).toBe('/a/b');
    expect(dirName('/c.txt')).toBe('/');
    expect(dirName('c.txt')).toBe('.');
    expect(isAbsolutePath('/x')).toBe(true);
    expect(isAbsolutePath('x')).toBe(false);
    expect(joinPath('/share/', 'stopwords', 'en')).toBe('/share/stopwords/en');
  });

  it('stopwords, wordforms and exceptions come from the installed files', () => {
    setTextFiles(mapFiles({ '/t/stop.txt': 'the\n', '/t/wf.txt': 'walks > run\n', '/t/ex.txt': 'AT&T => att\n' }));
    const p = createTextPipeline({ stopwords: '/t/stop.txt', wordforms: '/t/wf.txt', exceptions: '/t/ex.txt' } as never);
    expect(p.normalizeWord('the')).toEqual([]);
    expect(p.normalizeWord('walks')).toEqual(['run']);
    expect(() => createTextPipeline({ stopwords: '/t/missing.txt' } as never)).toThrow(/'stopwords' file missed/);
  });
});
