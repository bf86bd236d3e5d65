import type { Job } from 'bullmq';
import pino from 'pino';
import { QueueName, SERVICES, type EmailJobData, type JobEnvelope } from '@mate/contracts';
import { JobWorker, type JobData } from '../queue-worker';

/** Exposes what BullMQ would call, without Redis: the unwrapping and the request id. */
class ProbeWorker extends JobWorker<QueueName.Email, { to: string }> {
  constructor() {
    super(
      { service: SERVICES.notification, queue: QueueName.Email, redisUrl: 'redis://unused', keyPrefix: 'x', concurrency: 1, enabled: false },
      pino({ level: 'silent' }),
    );
  }
  protected async handle(data: EmailJobData) {
    return { to: data.to };
  }
  run(job: Partial<Job<JobData<QueueName.Email>>>) {
    const typed = job as Job<JobData<QueueName.Email>, { to: string }>;
    return { requestId: this.requestIdOf(typed), result: this.process(typed) };
  }
}

const email: EmailJobData = { template: 'verify-email', to: 'ana@mate.test', name: null, link: 'http://x' };

describe('JobWorker', () => {
  it('unwraps the job envelope and belongs to the request that caused the job', async () => {
    const envelope: JobEnvelope<QueueName.Email> = {
      id: 'row-1',
      queue: QueueName.Email,
      requestId: 'req-42',
      createdAt: new Date().toISOString(),
      data: email,
    };
    const { requestId, result } = new ProbeWorker().run({ id: 'row-1', data: envelope });
    expect(requestId).toBe('req-42');
    expect((await result).to).toBe('ana@mate.test');
  });

  it('still reads job data written before envelopes existed, under a request id of its own', async () => {
    const { requestId, result } = new ProbeWorker().run({ id: '17', data: email });
    expect(requestId).toBe('job:17');
    expect((await result).to).toBe('ana@mate.test');
  });

  it('does not start a worker when WORKERS=off', () => {
    const worker = new ProbeWorker();
    worker.onModuleInit();
    expect(worker.running).toBe(false);
  });
});
