import type { LikesReceivedDto, SuggestionDto } from '@mate/contracts';
import { createApiClient } from './client';
import { fails, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const suggestion: SuggestionDto = {
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
  score: 87,
  photos: [{ id: 'b1', url: '/api/photos/files/b1/large.webp', isPrimary: true, order: 0 }],
  distance: 'about 30 km',
};

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

describe('matching calls against a real HTTP server', () => {
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

  it('reads suggestions with limit 20 by default, or the limit asked for, with the bearer token', async () => {
    reply = ok([suggestion]);
    await expect(client().matching.getSuggestions()).resolves.toEqual([suggestion]);
    await client().matching.getSuggestions(5);
    expect(server.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()}`)).toEqual([
      'GET /api/matches/suggestions?limit=20',
      'GET /api/matches/suggestions?limit=5',
    ]);
    expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');
  });

  it("answers an empty queue for a body that is not a list, and 'Failed to get match suggestions' without an error field", async () => {
    reply = ok({ unexpected: true });
    await expect(client().matching.getSuggestions()).resolves.toEqual([]);
    reply = fails(502);
    await expect(client().matching.getSuggestions()).rejects.toMatchObject({
      message: 'Failed to get match suggestions',
      status: 502,
    });
    reply = fails(503, { error: 'Service temporarily unavailable' });
    await expect(client().matching.getSuggestions()).rejects.toThrow('Service temporarily unavailable');
  });

  it('likes with POST and no body, and reads matched with the match id', async () => {
    reply = ok({ matched: true, matchId: 'm1' });
    await expect(client().matching.like('u 2')).resolves.toEqual({ matched: true, matchId: 'm1' });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/matches/like/u%202',
      body: undefined,
    });
    reply = ok({ matched: false });
    await expect(client().matching.like('u2')).resolves.toEqual({ matched: false });
    reply = ok({ matched: 'yes' });
    await expect(client().matching.like('u2')).resolves.toEqual({ matched: false });
  });

  it("falls back to 'Failed to like user', and keeps the server's refusal", async () => {
    reply = fails(500);
    await expect(client().matching.like('u2')).rejects.toThrow('Failed to like user');
    reply = fails(400, { error: "You can't like yourself" });
    await expect(client().matching.like('u2')).rejects.toMatchObject({
      message: "You can't like yourself",
      status: 400,
    });
  });

  it('records a pass with POST /pass/{id}', async () => {
    reply = ok({ passed: true });
    await expect(client().matching.pass('u2')).resolves.toEqual({ passed: true });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/matches/pass/u2' });
    reply = fails(500);
    await expect(client().matching.pass('u2')).rejects.toThrow('Failed to pass user');
  });

  it('rewinds and answers the card to put back, or the server refusal when there is nothing to rewind', async () => {
    reply = ok({ suggestion });
    await expect(client().matching.rewind()).resolves.toEqual({ suggestion });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/matches/rewind' });
    reply = fails(404, { error: 'Nothing to rewind' });
    await expect(client().matching.rewind()).rejects.toMatchObject({
      message: 'Nothing to rewind',
      status: 404,
    });
    reply = fails(500);
    await expect(client().matching.rewind()).rejects.toThrow('Failed to rewind');
  });

  it("reads my matches, with 'Failed to get matches' as the fallback", async () => {
    const match = {
      matchId: 'm1',
      userId: 'u2',
      name: 'Bea',
      profilePicture: null,
      matchedAt: '2026-11-23T00:00:00.000Z',
    };
    reply = ok([match]);
    await expect(client().matching.getMyMatches()).resolves.toEqual([match]);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/matches/my-matches' });
    reply = fails(500);
    await expect(client().matching.getMyMatches()).rejects.toThrow('Failed to get matches');
  });

  it('reads the match stats', async () => {
    reply = ok({ matches: 2, likesReceived: 7, likesSent: 9 });
    await expect(client().matching.getMatchStats()).resolves.toEqual({
      matches: 2,
      likesReceived: 7,
      likesSent: 9,
    });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/matches/stats' });
    reply = fails(500);
    await expect(client().matching.getMatchStats()).rejects.toThrow('Failed to get match stats');
  });

  describe('who liked you (GET /api/matches/likes-received)', () => {
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
});
