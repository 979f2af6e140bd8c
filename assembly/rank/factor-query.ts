// Per-query inputs shared by the expression ranker's factor modules: table sizes and the idf
// and keyword of each query position.

/** Fields tracked per row; Manticore's masks and field_mask cover the same first 32 fields. */
export const XF_FIELDS: u32 = 32;
/** Query positions tracked (word masks are 32 bits wide, as Manticore's DWORD masks). */
export const XF_QPOS: u32 = 32;

/** idf by query position (a repeated keyword's later positions carry its idf too). */
export const qposIdf = new StaticArray<f32>(XF_QPOS);
/** Per query position: the first position of its keyword (Manticore's m_dTermDupes). */
export const qposAtom = new StaticArray<u32>(XF_QPOS);
