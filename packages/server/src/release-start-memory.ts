import v8 from 'node:v8';
import vm from 'node:vm';

type GarbageCollector = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Hands the memory the start used and no longer needs back to the system, once: one full garbage
 * collection of the kind V8 runs under memory pressure, which also returns the emptied heap pages
 * (an ordinary collection keeps them pooled, and an idle service may not collect for a long
 * while). About 30 MB of an idle embedded service's resident memory (docs/benchmarks.md, goal 7).
 * `gc` is taken from a new context while `--expose-gc` is on, so the service's own global never
 * has it.
 */
export function releaseStartMemory(): void {
  v8.setFlagsFromString('--expose-gc');
  try {
    // Flags set after the start are not promised to work: without `gc`, nothing is collected.
    const gc = vm.runInNewContext('typeof gc === "function" ? gc : undefined') as
      | GarbageCollector
      | undefined;
    gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
