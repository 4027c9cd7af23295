/**
 * A worker thread that embeds provider texts with the built-in model (see
 * embed-pool.ts). It receives the serialized model once, then batches of texts,
 * and answers each batch with one packed Float32Array (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BuiltinEmbedder } from './embedder-builtin.ts';

const embedder = BuiltinEmbedder.deserialize(workerData.model as Uint8Array);

parentPort!.on('message', (message: { id: number; texts: string[] }) => {
  const packed = new Float32Array(message.texts.length * embedder.dims);
  message.texts.forEach((text, i) => packed.set(embedder.embedDocumentSync(text), i * embedder.dims));
  parentPort!.postMessage({ id: message.id, packed }, [packed.buffer]);
});
