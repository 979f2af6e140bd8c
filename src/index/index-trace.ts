/**
 * Marks of an index's background work (RAM tail seals, merges) for finding where a stream of writes
 * spends its CPU: the Node host installs a sink when QUARRY_TRACE_PHASES=1 (node-host.ts: the marks print
 * with the phase trace's clock and thread CPU); without one a mark costs a test of `mark`. src/index imports
 * no Node built-in, so the sink comes from the host.
 */
export const indexTrace: { mark: ((text: string) => void) | null } = { mark: null };
