import type { z } from 'zod';

/** Roles are ordered: an `ops` session may do everything an `analyst` may. */
export const ROLES = ['analyst', 'ops'] as const;
export type Role = (typeof ROLES)[number];

export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

export interface CallDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly kind: 'call';
  readonly input: I;
  readonly output: O;
  readonly role: Role;
  readonly summary: string;
}

export interface StreamDef<I extends z.ZodType = z.ZodType, E extends z.ZodType = z.ZodType> {
  readonly kind: 'stream';
  readonly input: I;
  readonly event: E;
  readonly role: Role;
  readonly summary: string;
}

export function call<I extends z.ZodType, O extends z.ZodType>(def: Omit<CallDef<I, O>, 'kind'>): CallDef<I, O> {
  return { kind: 'call', ...def };
}

export function stream<I extends z.ZodType, E extends z.ZodType>(def: Omit<StreamDef<I, E>, 'kind'>): StreamDef<I, E> {
  return { kind: 'stream', ...def };
}
