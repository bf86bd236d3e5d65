import { keyShape } from './redis-usage';

describe('keyShape (the soak groups Redis keys by it)', () => {
  it('folds ids and numbers so one group holds every key of a kind', () => {
    expect(keyShape('mate:bull:events.chat-service:123')).toBe('mate:bull:events.chat-service:{n}');
    expect(keyShape('mate:session:0b6f7c1e-2a4d-4f0e-9c3b-7d1e2f3a4b5c:s')).toBe('mate:session:{id}:s');
    expect(keyShape('mate:bull:events.chat-service:completed')).toBe('mate:bull:events.chat-service:completed');
  });
});
