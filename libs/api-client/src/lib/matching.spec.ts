import type { LikesReceivedDto } from '@mate/contracts';
import { createApiClient } from './client';
import { fails, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const likes: LikesReceivedDto = {
  total: 3,
  likers: [
    {
      user: {
        id: 'u2',
        name: 'Bea',
        age: 29,
        bio: 'Climber.',
        location: 'Porto, Portugal',
        occupation: 'Nurse',
        interests: ['Hiking'],
        profilePicture: '/api/photos/files/b1/large.webp',
      },
      photos: [{ id: 'b1', url: '/api/photos/files/b1/large.webp', isPrimary: true, order: 0 }],
      likedAt: '2026-11-29T09:00:00.000Z',
    },
  ],
};

describe('who liked you (GET /api/matches/likes-received) against a real HTTP server', () => {
  let server: Server;
  let reply: Reply;

  beforeAll(async () => {
    server = await startTestServer((req, res) => reply(req, res));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const client = () => createApiClient({ baseUrl: server.baseUrl, getToken: () => 'tok-123' });

  it('asks for the first 20 by default, or the page asked for, with the bearer token, and answers the body', async () => {
    reply = ok(likes);
    await expect(client().matching.likesReceived()).resolves.toEqual(likes);
    await client().matching.likesReceived({ limit: 5, offset: 10 });
    expect(server.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()}`)).toEqual([
      'GET /api/matches/likes-received?limit=20&offset=0',
      'GET /api/matches/likes-received?limit=5&offset=10',
    ]);
    expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');
  });

  it("reads a body without a list as nobody, and fails with 'Failed to get who liked you' or the server's error", async () => {
    reply = ok({ unexpected: true });
    await expect(client().matching.likesReceived()).resolves.toEqual({ total: 0, likers: [] });
    reply = fails(502);
    await expect(client().matching.likesReceived()).rejects.toMatchObject({
      message: 'Failed to get who liked you',
      status: 502,
    });
    reply = fails(400, { error: 'limit must be a whole number from 1 to 50' });
    await expect(client().matching.likesReceived({ limit: 99 })).rejects.toMatchObject({
      message: 'limit must be a whole number from 1 to 50',
      status: 400,
    });
  });
});
