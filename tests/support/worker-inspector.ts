/**
 * Reaching into a running process's worker threads from outside, through Node's
 * own inspector (the Chrome DevTools protocol's NodeWorker domain): the tests use
 * it to make a real search thread die of an uncaught error while it holds
 * searches, in this process (node:inspector) or in a server started with
 * `--inspect=127.0.0.1:0` (its WebSocket). Nothing in the product knows about it.
 */
import inspector from 'node:inspector';

type Listener = (method: string, params: Record<string, unknown>) => void;

export interface DevTools {
  post(method: string, params?: Record<string, unknown>): Promise<unknown>;
  onEvent(listener: Listener): void;
  close(): void;
}

/** The inspector of this process. */
export function inProcessDevTools(): DevTools {
  const session = new inspector.Session();
  session.connect();
  const listeners: Listener[] = [];
  session.on('inspectorNotification', (m: { method: string; params?: Record<string, unknown> }) => {
    for (const l of listeners) l(m.method, m.params ?? {});
  });
  return {
    post: (method, params) =>
      new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result)))),
    onEvent: (l) => void listeners.push(l),
    close: () => session.disconnect(),
  };
}

/** The inspector of another process, from the `ws://` URL it printed ("Debugger listening on ..."). */
export async function remoteDevTools(url: string): Promise<DevTools> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`could not reach the inspector at ${url}`));
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners: Listener[] = [];
  ws.onmessage = (event) => {
    const m = JSON.parse(String(event.data)) as { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };
    if (m.id !== undefined) {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error.message));
      else w?.resolve(m.result);
    } else if (m.method) for (const l of listeners) l(m.method, m.params ?? {});
  };
  return {
    post: (method, params) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params: params ?? {} }));
      }),
    onEvent: (l) => void listeners.push(l),
    close: () => ws.close(),
  };
}

/**
 * Runs `expression` in the first worker thread (attached now or later) whose script URL
 * contains `urlPart`, and resolves with the worker's title once it has run there.
 */
export async function evaluateInWorker(tools: DevTools, urlPart: string, expression: string): Promise<string> {
  const attached = new Promise<{ sessionId: string; title: string }>((resolve) => {
    tools.onEvent((method, params) => {
      const info = params.workerInfo as { url: string; title: string } | undefined;
      if (method === 'NodeWorker.attachedToWorker' && info?.url.includes(urlPart)) resolve({ sessionId: String(params.sessionId), title: info.title });
    });
  });
  const ran = new Promise<void>((resolve) =>
    tools.onEvent((method, params) => {
      if (method === 'NodeWorker.receivedMessageFromWorker' && String(params.message).includes('"id":1,')) resolve();
    }),
  );
  await tools.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  const { sessionId, title } = await attached;
  const message = JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression } });
  await tools.post('NodeWorker.sendMessageToWorker', { sessionId, message });
  await ran;
  await tools.post('NodeWorker.disable');
  return title;
}

/**
 * Evaluated in a search thread: its next answer throws instead of leaving (the
 * thread posts answers on the port it was given in workerData), and the error
 * escapes the search as an unhandled rejection: an uncaught error that ends the
 * thread with the searches it was sent unanswered.
 */
export const DIE_ON_NEXT_ANSWER = `(() => {
  const { workerData } = process.getBuiltinModule('node:worker_threads');
  workerData.answers.postMessage = () => { throw new Error('search thread killed by the test'); };
  return 'armed';
})()`;
