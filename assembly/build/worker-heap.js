// asc transform: lets a worker thread's core instance keep its heap inside one region of the shared
// memory. The AS runtime's TLSF allocator always places its root at __heap_base and grows the memory
// on its own; an instance in a worker must instead allocate from the region the main instance gave
// it and must never grow the memory (two threads growing it at once would both claim the new
// pages). Runs after compilation, before optimization, while the runtime's names are still there.
import { Transform } from "assemblyscript/transform";
import binaryen from "binaryen";

const ROOT = "~lib/rt/tlsf/ROOT";
const ADD_MEMORY = "~lib/rt/tlsf/addMemory";
const GROW = "~lib/rt/tlsf/growMemory";
const CONFINED = "quarry/heapConfined";

export default class WorkerHeap extends Transform {
  afterCompile(module) {
    const i32 = binaryen.i32;
    if (!module.getGlobal(ROOT) || !module.getFunction(ADD_MEMORY) || !module.getFunction(GROW)) {
      throw new Error("worker-heap transform: the TLSF runtime's ROOT/addMemory/growMemory not found");
    }
    module.addGlobal(CONFINED, i32, true, module.i32.const(0));
    // heapConfine(root, end): a fresh TLSF root at `root` (its ROOT_SIZE bytes zeroed by the host)
    // owning [root + 2048, end); from then on this instance allocates only there.
    module.addFunction("quarry/heapConfine", binaryen.createType([i32, i32]), binaryen.none, [], module.block(null, [
      module.global.set(ROOT, module.local.get(0, i32)),
      module.global.set(CONFINED, module.i32.const(1)),
      module.drop(module.call(ADD_MEMORY, [
        module.local.get(0, i32),
        module.i32.add(module.local.get(0, i32), module.i32.const(2048)),
        module.i64.extend_u(module.local.get(1, i32)),
      ], i32)),
    ]));
    module.addFunctionExport("quarry/heapConfine", "heapConfine");
    // growMemory traps in a confined instance: the host sees the trap, gives the worker a larger
    // region and runs the task again.
    const grow = module.getFunction(GROW);
    const body = binaryen.getFunctionInfo(grow).body;
    binaryen._BinaryenFunctionSetBody(grow, module.block(null, [
      module.if(module.global.get(CONFINED, i32), module.unreachable()),
      body,
    ]));
  }
}
