import type { ZodType } from 'zod';
import { StreamQueue } from './streamQueue';
import type { Wire } from './wire';

export interface DeliveryOptions {
  capacity: number;
  intervalMs: number;
  log: (msg: string) => void;
}

/**
 * A subscription's queue: events are batched every `intervalMs`, held while the wire is
 * congested, and dropped (and counted) past `capacity`.
 */
export function deliveryQueue(wire: Wire, send: Wire['send'], id: string, name: string, eventSchema: ZodType, opts: DeliveryOptions): StreamQueue<unknown> {
  return new StreamQueue<unknown>({
    capacity: opts.capacity,
    intervalMs: opts.intervalMs,
    flush: (events, dropped) => {
      if (wire.congested?.()) return false;
      const out: unknown[] = [];
      // Validated at delivery, not at push: dropped events cost nothing.
      for (const ev of events) {
        const r = eventSchema.safeParse(ev);
        if (r.success) out.push(r.data);
        else opts.log(`${name}: event failed its schema: ${r.error.message}`);
      }
      send({ t: 'batch', id, events: out, dropped });
      return true;
    },
  });
}
