import { keyShape, otherThanRetainedJobs, retainedEventJobs } from './redis-usage';

describe('keyShape (the soak groups Redis keys by it)', () => {
  it('folds ids and numbers so one group holds every key of a kind', () => {
    expect(keyShape('mate:bull:events.chat-service:123')).toBe('mate:bull:events.chat-service:{n}');
    expect(keyShape('mate:session:0b6f7c1e-2a4d-4f0e-9c3b-7d1e2f3a4b5c:s')).toBe('mate:session:{id}:s');
    expect(keyShape('mate:bull:events.chat-service:completed')).toBe('mate:bull:events.chat-service:completed');
  });
});

describe('retainedEventJobs (what Redis keeps of finished event jobs, by design)', () => {
  it('counts the event queues’ job hashes and completed sets apart from everything else', () => {
    const usage = {
      usedMemoryBytes: 10_000,
      groups: new Map([
        ['mate:events.chat-service:{id}', { keys: 300, bytes: 3_000 }],
        ['mate:events.admin-service:{id}', { keys: 900, bytes: 4_000 }],
        ['mate:events.admin-service:completed', { keys: 1, bytes: 500 }],
        ['mate:socket.io', { keys: 1, bytes: 1_000 }],
        ['mate:session:{id}', { keys: 50, bytes: 700 }],
      ]),
    };
    expect(retainedEventJobs(usage)).toEqual({ bytes: 7_500, largestQueue: 900 });
    expect(otherThanRetainedJobs(usage)).toBe(2_500);
  });
});
