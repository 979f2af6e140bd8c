/**
 * The passage pick of one document: the WASM core by default, the TypeScript twin
 * (snippet-extract.ts + snippet-select.ts) when QUARRY_SNIPPET=ts or when asked (benches, tests).
 */
import { envVar } from '../util/env.js';
import { pickPassagesWasm, type PickedPassage, type PickInput } from '../wasm/snippet.js';
import { PassageExtractor } from './snippet-extract.js';
import { PassageContext, passageWeight, type Passage } from './snippet-passages.js';
import { selectPassages } from './snippet-select.js';

export type { PickedPassage, PickInput };

/** The TypeScript twin of assembly/snippet/pick.ts. */
export function pickPassagesTs(inp: PickInput): PickedPassage[] {
  const set = { around: inp.around, forceAllWords: inp.forceAllWords, useBoundaries: inp.useBoundaries, spz: inp.spz };
  const ctx = new PassageContext();
  const picked: Passage[] = [];
  inp.streams.forEach((s, f) => {
    if (!inp.extract[f]) return;
    const c = inp.perField ? new PassageContext() : ctx;
    new PassageExtractor(s, f, inp.limits[f], set, c, inp.termWeights).run();
    if (inp.perField) picked.push(...selectPassages(c.passages, inp.limits[f], set, inp.termWeights, inp.foundWords));
  });
  if (!inp.perField) picked.push(...selectPassages(ctx.passages, inp.global, set, inp.termWeights, inp.foundWords));
  return picked.map((p) => ({ field: p.field, start: p.start, tokens: p.tokens, weight: passageWeight(p) }));
}

export type Picker = 'wasm' | 'ts';

let picker: Picker = envVar('QUARRY_SNIPPET') === 'ts' ? 'ts' : 'wasm';

/** Which picker every later highlight uses (the bench compares both). */
export function setSnippetPicker(p: Picker): void {
  picker = p;
}

/** The picker later highlights use. */
export function currentPicker(): Picker {
  return picker;
}

export function pickPassages(inp: PickInput, engine: Picker = picker): PickedPassage[] {
  return engine === 'ts' ? pickPassagesTs(inp) : pickPassagesWasm(inp);
}
