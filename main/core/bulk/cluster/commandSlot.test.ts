import { describe, expect, it } from 'vitest';
import { encodeCommand } from '../../resp/encodeCommand';
import { CommandSlots, NO_SLOT, SlotRefusal } from './commandSlot';
import { slotOf } from '../../resp/slot';

const slotOfCommand = (...args: string[]): number => new CommandSlots().read(encodeCommand(args), 0);

describe('CommandSlots', () => {
  it('takes the slot of argument 1 for ordinary commands, and ends where the command ends', () => {
    const buf = Buffer.concat([encodeCommand(['SET', 'user:1', 'x']), encodeCommand(['hset', 'h', 'f', 'v'])]);
    const s = new CommandSlots();
    expect(s.read(buf, 0)).toBe(slotOf('user:1'));
    expect(s.read(buf, s.end)).toBe(slotOf('h'));
    expect(s.end).toBe(buf.length);
  });

  it('accepts multi-key commands whose keys share a slot', () => {
    expect(slotOfCommand('MSET', '{u}a', '1', '{u}b', '2')).toBe(slotOf('u'));
    expect(slotOfCommand('DEL', '{u}a', '{u}b')).toBe(slotOf('u'));
    expect(slotOfCommand('ZUNIONSTORE', '{z}out', '2', '{z}a', '{z}b', 'WEIGHTS', '1', '2')).toBe(slotOf('z'));
    expect(slotOfCommand('EVAL', 'return 1', '1', '{e}k', 'notakey')).toBe(slotOf('e'));
  });

  it('refuses keys in different slots, naming both', () => {
    expect(() => slotOfCommand('MSET', 'a', '1', 'b', '2')).toThrow(/CROSSSLOT: MSET's keys "a" and "b"/);
    expect(() => slotOfCommand('RENAME', 'a', 'b')).toThrow(SlotRefusal);
  });

  it('sends keyless commands anywhere and refuses transactions', () => {
    expect(slotOfCommand('PING')).toBe(NO_SLOT);
    expect(slotOfCommand('EVAL', 'return 1', '0')).toBe(NO_SLOT);
    expect(() => slotOfCommand('MULTI')).toThrow(/transaction runs on one node/);
  });
});
