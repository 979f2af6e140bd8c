/**
 * Detaches a throwaway ArrayBuffer, once, before a thread's hot code is optimized. V8 compiles typed-array
 * access without detach checks while no buffer in the isolate was ever detached (its ArrayBufferDetaching
 * protector), and the first detach deoptimizes every function compiled that way. A build thread transfers
 * each segment's blob (a detach) after its first batch: measured on the gcide import, that first transfer
 * threw away ~74 optimized functions of the build thread (stem_en steps, the inverter, the encoder) and
 * TurboFan compiled them all again. Detaching first, they compile once, with the checks they would carry
 * after the first transfer anyway.
 */
export function detachFirst(): void {
  const buf = new ArrayBuffer(8);
  structuredClone(buf, { transfer: [buf] });
}
