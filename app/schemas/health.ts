import * as z from 'zod';
import { call } from '../define';
import { Empty } from './common';

export const Health = z.object({ status: z.literal('ok'), version: z.string() });

export const health = {
  health: call({ summary: 'Liveness and version', role: 'analyst', input: Empty, output: Health }),
} as const;
