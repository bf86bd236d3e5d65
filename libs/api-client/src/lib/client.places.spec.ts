import { createApiClient } from './client';
import { fails, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('place search for the location field (issue 25), against a real HTTP server', () => {
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

  it('asks GET /api/profile/places with q and limit, with the session, and reads the places', async () => {
    reply = ok([
      { name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' },
      { name: 'Trondheim', country: 'Norway', label: 'Trondheim, Norway' },
    ]);
    await expect(client().profile.searchPlaces('Trom', 8)).resolves.toEqual([
      { name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' },
      { name: 'Trondheim', country: 'Norway', label: 'Trondheim, Norway' },
    ]);
    const [request] = server.requests;
    expect({ method: request.method, path: request.path }).toEqual({ method: 'GET', path: '/api/profile/places' });
    expect(Object.fromEntries(request.query)).toEqual({ q: 'Trom', limit: '8' });
    expect(request.headers.authorization).toBe('Bearer tok-123');
  });

  it('drops entries without a label, and answers [] for a body that is not a list', async () => {
    reply = ok([{ name: 'Nowhere' }, null, { label: 'Bodø, Norway' }]);
    await expect(client().profile.searchPlaces('Bod')).resolves.toEqual([
      { name: 'Bodø, Norway', country: '', label: 'Bodø, Norway' },
    ]);
    reply = ok({ message: 'ok' });
    await expect(client().profile.searchPlaces('Bod')).resolves.toEqual([]);
  });

  it("throws the server's error", async () => {
    reply = fails(400, { error: 'q must be 1 to 100 characters' });
    await expect(client().profile.searchPlaces('')).rejects.toThrow('q must be 1 to 100 characters');
  });
});
