import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseStartMemory } from './release-start-memory.js';

describe('releaseStartMemory', () => {
  it('collects, and leaves no `gc` for code run later in a new context', () => {
    releaseStartMemory();
    releaseStartMemory();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
    expect('gc' in globalThis).toBe(false);
  });
});
