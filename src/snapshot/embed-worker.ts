/**
 * A worker thread that embeds provider texts with the built-in model (see
 * embed-pool.ts). It receives the serialized model once, then batches of texts,
 * and answers each batch with one packed Float32Array (transferred, not copied).
 * Once it has the IVF centroids (vector-partitions.ts), it also answers the list
 * each vector belongs to, so that assignment is spread over the workers too.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BuiltinEmbedder } from './embedder-builtin.ts';
import { NearestCentroid } from './vector-nearest.ts';

const embedder = BuiltinEmbedder.deserialize(workerData.model as Uint8Array);
const dims = embedder.dims;
// A worker file is its own entry point: this state belongs to this one thread (one build), nothing else reads it.
let nearest: NearestCentroid | undefined;

type Request = { id: number; texts: string[] } | { centroids: Float32Array; lists: number };

parentPort!.on('message', (message: Request) => {
  if ('centroids' in message) {
    nearest = new NearestCentroid(message.centroids, message.lists, dims);
    return;
  }
  const packed = new Float32Array(message.texts.length * dims);
  message.texts.forEach((text, i) => packed.set(embedder.embedDocumentSync(text), i * dims));
  const listOf = nearest ? new Int32Array(message.texts.length) : undefined;
  if (listOf && nearest) for (let i = 0; i < listOf.length; i++) listOf[i] = nearest.of(packed, i * dims);
  parentPort!.postMessage({ id: message.id, packed, listOf }, listOf ? [packed.buffer, listOf.buffer] : [packed.buffer]);
});
