#!/usr/bin/env node
/**
 * Writes share/stopwords/<code>: the built-in stopword lists a table names by language code
 * (`stopwords = 'en, de'`), the same 50 codes Manticore resolves in its share directory. The words
 * come from three freely licensed projects (their licences are in share/licenses/, the sources per
 * code in share/STOPWORDS.md), picked per language as the project whose list Manticore's agrees with:
 *   --snowball DIR         snowball-website's algorithms/ folder (<language>/stop.txt, BSD-3-Clause)
 *   --stopwords-json FILE  stopwords-json's stopwords-all.json (Apache-2.0)
 *   --stopwords-iso FILE   stopwords-iso's stopwords-iso.json (MIT)
 * Run once when a source is updated; the output is committed (nothing is fetched at build time).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Manticore's code -> the Snowball language folder. */
const SNOWBALL = {
  da: 'danish', de: 'german', en: 'english', es: 'spanish', fi: 'finnish', fr: 'french', ga: 'irish',
  hu: 'hungarian', it: 'italian', nl: 'dutch', no: 'norwegian', pt: 'portuguese', ru: 'russian', sv: 'swedish',
};
/** Manticore's code -> stopwords-json's (Manticore names Czech `cz`). */
const JSON_CODES = {
  af: 'af', ar: 'ar', bg: 'bg', bn: 'bn', ca: 'ca', cz: 'cs', el: 'el', eo: 'eo', et: 'et', eu: 'eu', fa: 'fa',
  gl: 'gl', he: 'he', hi: 'hi', hr: 'hr', hy: 'hy', id: 'id', ja: 'ja', ko: 'ko', la: 'la', lv: 'lv', mr: 'mr',
  pl: 'pl', ro: 'ro', sk: 'sk', sl: 'sl', so: 'so', st: 'st', sw: 'sw', th: 'th', tr: 'tr', yo: 'yo', zh: 'zh', zu: 'zu',
};
/** Manticore's code -> stopwords-iso's (Central Kurdish is its `ku`; Lithuanian only there). */
const ISO_CODES = { ckb: 'ku', lt: 'lt' };

function arg(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`missing ${name}`);
  return process.argv[i + 1];
}

/** A Snowball stop.txt: words at line starts, `|` starts a comment. */
function snowballWords(text) {
  return text.split(/\r?\n/).flatMap((line) => line.replace(/\|.*/, '').trim().split(/\s+/)).filter(Boolean);
}

const out = process.argv.includes('--out') ? arg('--out') : 'share/stopwords';
const lists = {};
const snowball = arg('--snowball');
for (const [code, lang] of Object.entries(SNOWBALL)) lists[code] = snowballWords(readFileSync(join(snowball, lang, 'stop.txt'), 'utf8'));
const sj = JSON.parse(readFileSync(arg('--stopwords-json'), 'utf8'));
for (const [code, src] of Object.entries(JSON_CODES)) lists[code] = sj[src];
const iso = JSON.parse(readFileSync(arg('--stopwords-iso'), 'utf8'));
for (const [code, src] of Object.entries(ISO_CODES)) lists[code] = iso[src];

mkdirSync(out, { recursive: true });
for (const [code, words] of Object.entries(lists)) {
  if (!words?.length) throw new Error(`no words for ${code}`);
  const unique = [...new Set(words.map((w) => w.trim()).filter(Boolean))];
  writeFileSync(join(out, code), `${unique.join('\n')}\n`);
}
console.log(`${Object.keys(lists).length} lists written to ${out}`);
