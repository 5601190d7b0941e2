import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { AppError } from '../../app/errors';
import type { z } from 'zod';

/** A flag's whole-number value (undefined when absent); the error names the flag. */
export function int(flag: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) {
    throw new AppError('VALIDATION', `--${flag} must be a whole number ≥ ${min}, not "${v}"`, flag);
  }
  return Number(v);
}

/** A flag's value from a fixed set (undefined when absent); the error lists the choices. */
export function oneOf<T extends string>(flag: string, v: string | undefined, allowed: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new AppError('VALIDATION', `--${flag} must be one of ${allowed.join(', ')}, not "${v}"`, flag);
  }
  return v as T;
}

/**
 * Raw flag values through the contract's schema, so the CLI and the UI refuse the same
 * things; the first issue is reported against the flag its field (dotted path) came from.
 */
export function throughSchema<S extends z.ZodType>(schema: S, raw: Record<string, unknown>, flagOf: (field: string) => string): z.output<S> {
  const checked = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, x]) => x !== undefined)));
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const flag = flagOf((issue?.path ?? []).map(String).join('.'));
  throw new AppError('VALIDATION', `--${flag}: ${issue?.message ?? 'invalid'}`, flag);
}

/** Strict flag parsing for a command: an unknown or malformed flag is refused with the command's help. */
export function parseFlags<const O extends ParseArgsOptionsConfig>(argv: string[], options: O, help: string) {
  try {
    return parseArgs({ args: argv, strict: true, options }).values;
  } catch (e) {
    throw usageError(e, help);
  }
}

/** As parseFlags, for a command that also takes positional arguments (a file, a trial's name). */
export function parseCommand<const O extends ParseArgsOptionsConfig>(argv: string[], options: O, help: string) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: true, options });
  } catch (e) {
    throw usageError(e, help);
  }
}

/** node:util's parse error (an unknown flag, a missing value), followed by the command's help. */
function usageError(e: unknown, help: string): AppError {
  return new AppError('VALIDATION', `${e instanceof Error ? e.message : String(e)}\n\n${help}`);
}
