// The whole wasm API: flat functions over scalars (ptr, len). Placeholder until the core lands.
export function version(): i32 { return 1; }
