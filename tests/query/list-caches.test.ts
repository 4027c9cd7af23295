/** The per-snapshot list caches (src/query/list-caches.ts): plain for one thread, shared across search threads. */
import { expect, it } from 'vitest';
import { ListCaches } from '../../src/query/list-caches.ts';

const list = () => ({ rowids: Int32Array.of(3, 7, 9), impacts: Float32Array.of(0.5, 1.5, 2.5), max: 2.5 });
type List = ReturnType<typeof list>;
interface Published {
  cache: string;
  budget: number;
  key: string;
  value: object | null;
  cost: number;
}
const recorder = (caches: ListCaches) => {
  const published: Published[] = [];
  caches.publish = (cache, budget, key, value, cost) => published.push({ cache, budget, key, value, cost });
  return published;
};
const keysOf = (caches: ListCaches) => {
  const keys: string[] = [];
  caches.publish = (_cache, _budget, key) => keys.push(key);
  return keys;
};

it('keeps lists in this thread only when one thread searches', () => {
  const caches = new ListCaches(false);
  const published = recorder(caches);
  const cache = caches.create<List>('terms', 1_000);
  const value = list();
  cache.set('jasa', value, 100);
  expect(cache.get('jasa')).toBe(value);
  caches.publishAll();
  expect(published).toEqual([]);
});

it('puts a new list on shared memory and publishes it; an adopted one is kept, not published again', () => {
  const caches = new ListCaches(true);
  const published = recorder(caches);
  const cache = caches.create<List>('terms', 1_000);
  cache.set('jasa', list(), 100);
  const kept = cache.get('jasa')!;
  expect(kept.rowids.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect(kept.impacts.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect({ rowids: [...kept.rowids], impacts: [...kept.impacts], max: kept.max }).toEqual({ rowids: [3, 7, 9], impacts: [0.5, 1.5, 2.5], max: 2.5 });
  expect(published).toEqual([{ cache: 'terms', budget: 1_000, key: 'jasa', value: kept, cost: 100 }]);

  const other = new ListCaches(true);
  const otherPublished = keysOf(other);
  other.adopt('terms', 1_000, 'jasa', kept, 100); // before this thread made the cache: it is made with the budget given
  const otherCache = other.create<List>('terms', 1_000);
  expect(otherCache.get('jasa')).toBe(kept);
  expect(otherPublished).toEqual([]);
  // within its budget like any entry; what it evicts, it tells the others, and they drop it too
  otherCache.set('desain', list(), 950);
  expect(otherCache.get('jasa')).toBeUndefined();
  expect(otherPublished).toEqual(['jasa', 'desain']);
  caches.adopt('terms', 1_000, 'jasa', null, 0);
  expect(cache.get('jasa')).toBeUndefined();
});

it('publishes the lists kept before publishing began, oldest first, on shared memory', () => {
  const caches = new ListCaches(true);
  const cache = caches.create<List>('groups', 1_000);
  cache.set('a', list(), 10);
  cache.set('b', list(), 10);
  cache.get('a');
  const published = recorder(caches);
  caches.publishAll();
  expect(published.map((p) => p.key)).toEqual(['b', 'a']);
  expect(published.every((p) => (p.value as List).rowids.buffer instanceof SharedArrayBuffer)).toBe(true);
  expect(cache.get('a')).toBe(published[1]!.value);
});

it('puts a list a search thread sent (a plain copy) on shared memory when the main thread adopts it, and frees the copy at once', () => {
  const caches = new ListCaches(true);
  const cache = caches.create<List>('terms', 1_000);
  const sent = list();
  const { rowids, impacts } = sent;
  caches.adopt('terms', 1_000, 'jasa', sent, 100);
  const kept = cache.get('jasa')!;
  expect(kept.rowids.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect(kept.impacts.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect({ rowids: [...kept.rowids], impacts: [...kept.impacts], max: kept.max }).toEqual({ rowids: [3, 7, 9], impacts: [0.5, 1.5, 2.5], max: 2.5 });
  expect([rowids.buffer.detached, impacts.buffer.detached]).toEqual([true, true]);
});
