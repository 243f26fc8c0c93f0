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
    const gc = vm.runInNewContext('gc') as GarbageCollector;
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
