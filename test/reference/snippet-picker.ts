// The passage picker's TypeScript twin: src/engine/snippet-pick.ts pickPassagesTs (extraction in
// snippet-extract.ts, the greedy pick in snippet-select.ts), written from Manticore's functors.
// It stays in src/ because the server can also run it (QUARRY_SNIPPET=ts) and the bench compares it.
export { pickPassagesTs as referencePick } from '../../src/engine/snippet-pick.js';
