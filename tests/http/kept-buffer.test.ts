/** src/server/kept-buffer.ts: what the answer and static-file caches keep is a copy in memory of its own. */
import { describe, expect, it } from 'vitest';
import { keptCopy } from '../../src/server/kept-buffer.ts';

describe('keptCopy', () => {
  it('copies a slice of a larger block into memory of exactly its length', () => {
    const block = Buffer.alloc(65_536, 7);
    block.write('hello', 1000);
    const slice = block.subarray(1000, 1005);
    const kept = keptCopy(slice);
    expect(kept.toString()).toBe('hello');
    expect(kept.byteOffset).toBe(0);
    expect(kept.buffer.byteLength).toBe(5);
    block.write('HELLO', 1000);
    expect(kept.toString()).toBe('hello'); // a copy, not a view
  });

  it('keeps an empty body', () => {
    expect(keptCopy(Buffer.alloc(0)).length).toBe(0);
  });
});
