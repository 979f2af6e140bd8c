// Snippet picker layouts shared with the host (src/wasm/snippet.ts): token stream, field table,
// parameters and the chosen passages. All words are u32 (i32 where noted).

/** Per token: | lengthCP | flags | keyword mask |. */
export const TOKEN_WORDS: u32 = 3;
export const TOK_WORD: u32 = 1;
export const TOK_HIT: u32 = 2;
/** A sentence / paragraph / zone boundary comes right before the token. */
export const TOK_BREAK: u32 = 4;
/** A gap piece holding a phrase_boundary character: the window is submitted and restarted after it. */
export const TOK_PHRASE_BOUNDARY: u32 = 8;

/**
 * Per field: | firstToken | nTokens | docBytes | limit | limitWords | limitSnippets | extract (0/1) |
 * own tokens |: own tokens 0 reads the field at firstToken of the call's stream, else the field's
 * tokens lie there from its token 0 (a stream the scanner left in this instance's memory).
 */
export const FIELD_WORDS: u32 = 8;

/**
 * Parameters: | around | forceAllWords | useBoundaries | spz | perField | limit | limitWords |
 * limitSnippets | foundWords | nTerms |, then nTerms keyword weights.
 */
export const PARAM_WORDS: u32 = 10;

/** Per chosen passage: | field | firstToken | nTokens | weight (i32) |. */
export const OUT_WORDS: u32 = 4;

/** Passage record (i32 words) in the core's scratch. */
export const P_FIELD: u32 = 0;
export const P_START: u32 = 1;
export const P_TOKENS: u32 = 2;
export const P_CODES: u32 = 3;
export const P_WORDS: u32 = 4;
export const P_QWORDS: u32 = 5;
export const P_QWEIGHT: u32 = 6;
export const P_QCOUNT: u32 = 7;
export const P_UNIQ: u32 = 8;
export const P_LCS: u32 = 9;
export const P_MINGAP: u32 = 10;
export const P_SLIMIT: u32 = 11;
export const P_ELIMIT: u32 = 12;
export const P_ABEFORE: u32 = 13;
export const P_AAFTER: u32 = 14;
export const P_CBETWEEN: u32 = 15;
export const P_WBETWEEN: u32 = 16;
/** Context tokens (lengthCP, wordFlag pairs) in the pool: offset and current count, before / after. */
export const P_BOFF: u32 = 17;
export const P_BLEN: u32 = 18;
export const P_AOFF: u32 = 19;
export const P_ALEN: u32 = 20;
export const PASSAGE_WORDS: u32 = 21;

export const INT_MAX: i32 = 0x7fffffff;
