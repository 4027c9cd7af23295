/**
 * A worker thread that fits the built-in embedder (see embedder-fit-start.ts): it
 * receives the sample texts once and answers with the serialized model.
 */
import { parentPort } from 'node:worker_threads';
import { fitBuiltinEmbedder } from './embedder-builtin-fit.ts';

parentPort!.once('message', (message: { texts: string[] }) => {
  try {
    const model = fitBuiltinEmbedder(message.texts).serialize();
    const bytes = new Uint8Array(model.buffer, model.byteOffset, model.byteLength).slice();
    parentPort!.postMessage({ model: bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).stack ?? String(error) });
  }
});
