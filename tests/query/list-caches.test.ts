/** The per-snapshot list caches (src/query/list-caches.ts): plain for one thread, shared across search threads. */
import { expect, it } from 'vitest';
import { ListCaches } from '../../src/query/list-caches.ts';

const list = () => ({ rowids: Int32Array.of(3, 7, 9), impacts: Float32Array.of(0.5, 1.5, 2.5), max: 2.5 });

it('keeps lists in this thread only when one thread searches', () => {
  const caches = new ListCaches(false);
  const published: string[] = [];
  caches.publish = (_cache, key) => published.push(key);
  const cache = caches.create<ReturnType<typeof list>>('terms', 1_000);
  const value = list();
  cache.set('jasa', value, 100);
  expect(cache.get('jasa')).toBe(value);
  expect(published).toEqual([]);
});

it('puts a new list on shared memory and publishes it; an adopted one is kept, not published again', () => {
  const caches = new ListCaches(true);
  const published: { cache: string; key: string; value: object; cost: number }[] = [];
  caches.publish = (cache, key, value, cost) => published.push({ cache, key, value, cost });
  const cache = caches.create<ReturnType<typeof list>>('terms', 1_000);
  cache.set('jasa', list(), 100);
  const kept = cache.get('jasa')!;
  expect(kept.rowids.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect(kept.impacts.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect({ rowids: [...kept.rowids], impacts: [...kept.impacts], max: kept.max }).toEqual({ rowids: [3, 7, 9], impacts: [0.5, 1.5, 2.5], max: 2.5 });
  expect(published).toEqual([{ cache: 'terms', key: 'jasa', value: kept, cost: 100 }]);

  const other = new ListCaches(true);
  const otherPublished: string[] = [];
  other.publish = (_cache, key) => otherPublished.push(key);
  const otherCache = other.create<ReturnType<typeof list>>('terms', 1_000);
  other.adopt('terms', 'jasa', kept, 100);
  other.adopt('groups', 'x', kept, 100); // a cache this thread has not made: dropped
  expect(otherCache.get('jasa')).toBe(kept);
  expect(otherPublished).toEqual([]);
  // within its budget like any entry
  otherCache.set('desain', list(), 950);
  expect(otherCache.get('jasa')).toBeUndefined();
});
