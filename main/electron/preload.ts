import { contextBridge, ipcRenderer } from 'electron';
import type { Bridge, StreamHandlers } from '../../app/bridge';
import type { CallInput, CallName, CallOutput, StreamEvent, StreamInput, StreamName } from '../../app/contract';
import { AppError } from '../../app/errors';
import { RpcClient } from '../../app/rpcClient';
import type { ServerMessage } from '../../app/wire';
import { IPC_CHANNEL } from './channel';

/**
 * Runs sandboxed, so it is bundled into one CommonJS file whose only require
 * is 'electron'. The page gets `invoke` and `subscribe`, nothing else: no
 * ipcRenderer, no channel name it could choose.
 */
const rpc = new RpcClient((m) => ipcRenderer.send(IPC_CHANNEL, m));

ipcRenderer.on(IPC_CHANNEL, (_event, m: unknown) => {
  if (typeof m === 'object' && m !== null && typeof (m as { t?: unknown }).t === 'string') {
    rpc.receive(m as ServerMessage);
  }
});

/**
 * contextBridge rebuilds an Error from its message alone, so an AppError would
 * reach the page without `code` or `field`. A plain object survives the copy
 * (and `toInfo` is proxied), so the page can still switch on `code`; it is not
 * `instanceof Error` there.
 */
function crossable(e: unknown): AppError {
  const err = e instanceof AppError ? e : new AppError('INTERNAL', String(e));
  const info = err.toInfo();
  return { name: 'AppError', message: err.message, code: err.code, field: err.field, toInfo: () => ({ ...info }) };
}

const bridge = {
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    return rpc.invoke(name, input).catch((e: unknown) => Promise.reject(crossable(e)));
  },
  subscribe<N extends StreamName>(name: N, input: StreamInput<N>, handlers: StreamHandlers<StreamEvent<N>>): () => void {
    return rpc.subscribe(name, input, {
      onEvents: (events, dropped) => handlers.onEvents(events, dropped),
      onEnd: (error) => handlers.onEnd?.(error === undefined ? undefined : crossable(error)),
    });
  },
} satisfies Bridge;

contextBridge.exposeInMainWorld('bridge', bridge);
