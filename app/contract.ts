import type { z } from 'zod';
import type { CallDef, StreamDef } from './define';
import { audience } from './schemas/audience';
import { audit } from './schemas/audit';
import { bulk } from './schemas/bulk';
import { clients } from './schemas/clients';
import { config } from './schemas/config';
import { connections } from './schemas/connections';
import { commandConsole } from './schemas/console';
import { exportKeys } from './schemas/export';
import { health } from './schemas/health';
import { keyActions } from './schemas/keyActions';
import { keys } from './schemas/keys';
import { metrics } from './schemas/metrics';
import { monitor } from './schemas/monitor';
import { profileTransfer } from './schemas/profileTransfer';
import { pubsub } from './schemas/pubsub';
import { sampling } from './schemas/sampling';
import { server } from './schemas/server';
import { trials } from './schemas/trials';

/**
 * The one contract: every call and stream the UI may use. The dispatcher
 * validates inputs and outputs against it; the renderer's types come from it.
 */
export const contract = {
  ...health,
  ...connections,
  ...profileTransfer,
  ...server,
  ...bulk,
  ...metrics,
  ...sampling,
  ...trials,
  ...monitor,
  ...audit,
  ...audience,
  ...keys,
  ...keyActions,
  ...exportKeys,
  ...commandConsole,
  ...config,
  ...clients,
  ...pubsub,
} as const;

export type Contract = typeof contract;
export type Name = keyof Contract;

export type CallName = { [K in Name]: Contract[K] extends CallDef ? K : never }[Name];
export type StreamName = { [K in Name]: Contract[K] extends StreamDef ? K : never }[Name];

type InputOf<N extends Name> = Contract[N]['input'];

/** What a client passes (defaults not yet applied). */
export type CallInput<N extends CallName> = z.input<InputOf<N>>;
/** What a handler receives (parsed, defaults applied). */
export type CallArgs<N extends CallName> = z.output<InputOf<N>>;
export type CallOutput<N extends CallName> = Contract[N] extends CallDef<z.ZodType, infer O> ? z.output<O> : never;

export type StreamInput<N extends StreamName> = z.input<InputOf<N>>;
export type StreamArgs<N extends StreamName> = z.output<InputOf<N>>;
export type StreamEvent<N extends StreamName> = Contract[N] extends StreamDef<z.ZodType, infer E> ? z.output<E> : never;

export function isName(name: string): name is Name {
  return Object.hasOwn(contract, name);
}
