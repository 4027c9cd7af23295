/**
 * V8's full collection, on demand, for the rebuild's threads. V8 grows a heap
 * lazily and collects when allocation asks it to, so the garbage of one phase (the
 * render plan's reads, the rendered pages) stays resident through the next: the
 * rebuild thread allocates nothing while it waits for the render thread, and the
 * render thread's old generation grew past 800 MB over 17 sitemap files at a million
 * providers, most of it garbage. The peak memory of a publish is the sum of the two,
 * so each collects where a phase ends (issue 43: a small publish within 1 GB).
 * `--expose-gc` set at run time gives later contexts the `gc` function (as Jest's
 * leak detector does); it collects the heap of the thread that calls it.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export function collectGarbage(): void {
  gc();
}

/**
 * A collector for a thread that runs many small tasks (the render thread's pages):
 * called after each, it collects once the heap has grown `headroomMb` past what the
 * last collection left, so each collection frees at least that much and the cost
 * stays a small share of the work, whatever the live size.
 */
export function collectorEvery(headroomMb: number): () => void {
  const headroom = headroomMb * 1024 * 1024;
  let limit = v8.getHeapStatistics().used_heap_size + headroom;
  return () => {
    if (v8.getHeapStatistics().used_heap_size < limit) return;
    gc();
    limit = v8.getHeapStatistics().used_heap_size + headroom;
  };
}
