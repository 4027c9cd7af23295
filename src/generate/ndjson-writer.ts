/**
 * Appends lines to a file in batches and waits for the stream to drain, so a
 * million-record dataset is written in bounded memory.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

const BATCH_LINES = 2000;

export class NdjsonWriter {
  private readonly stream: WriteStream;
  private batch: string[] = [];

  constructor(path: string) {
    this.stream = createWriteStream(path, { encoding: 'utf8' });
  }

  async write(record: unknown): Promise<void> {
    this.batch.push(JSON.stringify(record));
    if (this.batch.length >= BATCH_LINES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const chunk = `${this.batch.join('\n')}\n`;
    this.batch = [];
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}
