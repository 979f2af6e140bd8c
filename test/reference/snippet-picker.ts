// The passage picker's TypeScript twin: src/highlight/snippet-pick.ts pickPassagesTs (extraction in
// snippet-extract.ts, the greedy pick in snippet-select.ts), written from Manticore's functors.
// It stays in src/ because the server can also run it (QUARRY_SNIPPET=ts) and the bench compares it.
export { pickPassagesTs as referencePick } from '../../src/highlight/snippet-pick.js';
