import { describe, expect, it } from 'vitest';
import { lastValue, parseConfig, readConfigFile } from '../../../src/server/config-parser.js';

const SAMPLE = `#!/bin/sh
# a typical config
searchd {
    listen = 127.0.0.1:9308:http
    listen = 127.0.0.1:9306:mysql41   # inline comment
    data_dir = /var/lib/quarry
    max_packet_size = 32M
}

table products {
    type = rt
    path = /var/lib/quarry/products
    rt_field = title
    rt_field = content
    rt_attr_uint = gid
    morphology = stem_en
    charset_table = non_cont, U+2E, \\
        U+5F
    stopwords = a \\# not a comment
}

index child : products {
    rt_field = body
    min_infix_len = 3
}

source src1 {
  sql_host = localhost
}
`;

describe('parseConfig', () => {
  const config = parseConfig(SAMPLE, 'sample.conf');

  it('reads plain sections with repeated keys in order', () => {
    expect(config.searchd.get('listen')).toEqual(['127.0.0.1:9308:http', '127.0.0.1:9306:mysql41']);
    expect(lastValue(config.searchd, 'data_dir')).toBe('/var/lib/quarry');
    expect(lastValue(config.searchd, 'MAX_PACKET_SIZE')).toBe('32M');
  });

  it('reads table sections, continuations and escaped hashes', () => {
    const t = config.tables.get('products')!;
    expect(t.get('rt_field')).toEqual(['title', 'content']);
    expect(lastValue(t, 'morphology')).toBe('stem_en');
    expect(lastValue(t, 'charset_table')).toBe('non_cont, U+2E,         U+5F');
    expect(lastValue(t, 'stopwords')).toBe('a # not a comment');
  });

  it('treats index and table as one section type, with inheritance replacing inherited lists', () => {
    const child = config.tables.get('child')!;
    expect(child.get('rt_field')).toEqual(['body']);
    expect(lastValue(child, 'morphology')).toBe('stem_en');
    expect(lastValue(child, 'min_infix_len')).toBe('3');
    expect(config.tables.get('products')!.get('rt_field')).toEqual(['title', 'content']);
  });

  it('reads source sections; a value runs to the end of its line, as in Manticore', () => {
    expect(lastValue(config.sources.get('src1'), 'sql_host')).toBe('localhost');
    expect(() => parseConfig('source s { sql_host = h }')).toThrow(/expected '}'/);
  });

  it('accepts an empty file and CRLF line ends', () => {
    expect(parseConfig('').tables.size).toBe(0);
    expect(lastValue(parseConfig('searchd {\r\n  listen = 9308:http\r\n}\r\n').searchd, 'listen')).toBe('9308:http');
  });

  it('reports errors with the file, line and column', () => {
    expect(() => parseConfig('searchd {\n  listen 9308\n}', 'x.conf')).toThrow(
      "ERROR: expected '=', got '9' in x.conf line 2 col 10.",
    );
    expect(() => parseConfig('bogus { }', 'x.conf')).toThrow(/invalid section type 'bogus' in x.conf line 1/);
    expect(() => parseConfig('table a : nope { }')).toThrow(/parent doesn't exist \(parent name='nope', type='index'\)/);
    expect(() => parseConfig('table a { }\nindex a { }')).toThrow(/section 'a' \(type='index'\) already exists/);
    expect(() => parseConfig('searchd {\n listen = 1')).toThrow(/expected '}'/);
  });
});

describe('readConfigFile', () => {
  it('names a file it cannot read as searchd does, not by Node\'s errno text', async () => {
    // quarry serve / quarry indexer --config /missing.conf printed "ENOENT: no such file or directory, open ..."
    await expect(readConfigFile('/nonexistent/quarry.conf')).rejects.toThrow(/^failed to open config file '\/nonexistent\/quarry.conf': No such file or directory$/);
    await expect(readConfigFile('/')).rejects.toThrow(/^failed to open config file '\/': Is a directory$/);
  });
});
