import { ClientSlots } from '../client-slots';

describe('ClientSlots', () => {
  it('gives an address at most its cap of slots, others their own', () => {
    const slots = new ClientSlots(2);
    expect(slots.take('203.0.113.1')).toEqual(expect.any(Function));
    expect(slots.take('203.0.113.1')).toEqual(expect.any(Function));
    expect(slots.take('203.0.113.1')).toBeNull();
    expect(slots.take('203.0.113.2')).toEqual(expect.any(Function));
    expect(slots.held('203.0.113.1')).toBe(2);
  });

  it('frees a slot once however often it is released', () => {
    const slots = new ClientSlots(1);
    const release = slots.take('203.0.113.1');
    expect(release).not.toBeNull();
    release?.();
    release?.();
    expect(slots.held('203.0.113.1')).toBe(0);
    const again = slots.take('203.0.113.1');
    expect(again).not.toBeNull();
    // The double release above did not hand out a second slot.
    expect(slots.take('203.0.113.1')).toBeNull();
    again?.();
    expect(slots.held('203.0.113.1')).toBe(0);
  });
});
