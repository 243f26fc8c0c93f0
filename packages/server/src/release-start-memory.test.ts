import { setImmediate as nextTurn } from 'node:timers/promises';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseStartMemory } from './release-start-memory.js';

describe('releaseStartMemory', () => {
  it('collects what is no longer referenced', async () => {
    // A WeakRef keeps its target until the turn that made it ends.
    const dropped = new WeakRef({ rows: new Array(1000).fill('start-only') });
    await nextTurn();
    releaseStartMemory();
    expect(dropped.deref()).toBeUndefined();
  });

  it('leaves no `gc` for code run later in a new context, nor on the global', () => {
    releaseStartMemory();
    releaseStartMemory();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
    expect('gc' in globalThis).toBe(false);
  });
});
