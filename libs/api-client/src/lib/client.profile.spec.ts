import { DEFAULT_FILTER_PREFERENCES, DEFAULT_PREFERENCES, type FilterPreferencesDto } from '@mate/contracts';
import { createApiClient } from './client';
import { photoPathAtSize } from './photos';
import { fails, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const profileBody = {
  id: 'p1',
  userId: 'u1',
  name: 'Ada',
  age: 30,
  location: 'Lisbon, Portugal',
  photos: [{ id: 'ph1', url: '/api/photos/files/ph1/large.webp', isPrimary: true, order: 0 }],
  isVerified: true,
  onboardingCompleted: true,
};

describe('profile, photos and preferences calls against a real HTTP server', () => {
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

  describe('profile', () => {
    it('reads locationResolved with the profile', async () => {
      reply = ok({ ...profileBody, locationResolved: false });
      await expect(client().profile.getMyProfile()).resolves.toMatchObject({
        id: 'p1',
        locationResolved: false,
      });
      reply = ok({ ...profileBody, locationResolved: null });
      await expect(client().profile.getMyProfile()).resolves.toMatchObject({ locationResolved: null });
    });

    it('reads the lifestyle fields, null when missing or not a stored value, and sends them with PUT', async () => {
      reply = ok({ ...profileBody, smoking: 'never', drinking: 'socially', exercise: 'daily', pets: 'dog' });
      await expect(client().profile.getMyProfile()).resolves.toMatchObject({
        smoking: 'never',
        drinking: 'socially',
        exercise: 'daily',
        pets: 'dog',
      });
      reply = ok({ ...profileBody, smoking: 'Chain smoker', exercise: 42 });
      await expect(client().profile.getMyProfile()).resolves.toMatchObject({
        smoking: null,
        drinking: null,
        exercise: null,
        pets: null,
      });
      reply = ok(profileBody);
      await client().profile.updateMyProfile({ smoking: null, pets: 'multiple' });
      expect(server.requests.at(-1)?.body).toEqual({ smoking: null, pets: 'multiple' });
    });

    it('updates the profile with PUT, nulls included, and passes the location note on', async () => {
      reply = ok({
        ...profileBody,
        location: 'Nowhere',
        locationResolved: false,
        locationNote: "We couldn't find that city",
      });
      const result = await client().profile.updateMyProfile({ name: 'Ada', age: null, interests: ['Art'] });
      expect(server.requests[0]).toMatchObject({
        method: 'PUT',
        path: '/api/profile/me',
        body: { name: 'Ada', age: null, interests: ['Art'] },
      });
      expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');
      expect(result).toMatchObject({
        location: 'Nowhere',
        locationResolved: false,
        locationNote: "We couldn't find that city",
      });

      reply = ok(profileBody);
      expect((await client().profile.updateMyProfile({ bio: 'x' })).locationNote).toBeUndefined();
    });

    it("update falls back to 'Failed to update profile' and keeps the server's error", async () => {
      reply = fails(500);
      await expect(client().profile.updateMyProfile({ name: 'A' })).rejects.toThrow(
        'Failed to update profile',
      );
      reply = fails(400, { error: 'Age must be between 18 and 120' });
      await expect(client().profile.updateMyProfile({ age: 12 })).rejects.toMatchObject({
        message: 'Age must be between 18 and 120',
        status: 400,
      });
    });

    it('reads the completion percentage', async () => {
      reply = ok({ percentage: 60 });
      await expect(client().profile.getCompletion()).resolves.toEqual({ percentage: 60 });
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/profile/me/completion' });
      reply = fails(503);
      await expect(client().profile.getCompletion()).rejects.toThrow('Failed to get profile completion');
    });

    it('skips onboarding without a body and completes it with one', async () => {
      reply = ok({ ...profileBody, onboardingCompleted: true });
      await expect(client().profile.completeOnboarding()).resolves.toMatchObject({
        onboardingCompleted: true,
      });
      expect(server.requests[0].body).toBeUndefined();
      expect(server.requests[0].headers['content-type']).toBeUndefined();

      const answers = {
        name: 'Ada',
        age: 30,
        gender: 'female',
        bio: 'I like long walks and short queues.',
        interests: ['Travel', 'Chess'],
        lookingFor: 'long-term',
        location: 'Lisbon, Portugal',
      };
      await client().profile.completeOnboarding(answers);
      expect(server.requests[1]).toMatchObject({
        method: 'POST',
        path: '/api/profile/me/complete-onboarding',
        body: answers,
      });

      reply = ok({ message: 'done' });
      await expect(client().profile.completeOnboarding()).resolves.toBeNull();
      reply = fails(400, { error: 'Add at least one photo' });
      await expect(client().profile.completeOnboarding(answers)).rejects.toThrow('Add at least one photo');
    });

    it("reads another member's profile without private flags", async () => {
      reply = ok({ ...profileBody, id: 'p2', userId: 'u 2', name: 'Bea', distance: 'about 10 km' });
      const other = await client().profile.getUserProfile('u 2');
      expect(server.requests[0].path).toBe('/api/profile/u%202');
      expect(other).toMatchObject({ userId: 'u 2', name: 'Bea', distance: 'about 10 km' });
      expect(other).not.toHaveProperty('isVerified');
      reply = fails(404);
      await expect(client().profile.getUserProfile('x')).rejects.toThrow('Failed to get user profile');
    });

    it('manages photos under /api/profile/me/photos', async () => {
      reply = ok({ id: 'ph9', url: '/x.webp', isPrimary: false, order: 3 }, 201);
      await expect(client().profile.addPhoto({ url: '/x.webp', isPrimary: false })).resolves.toEqual({
        id: 'ph9',
        url: '/x.webp',
        isPrimary: false,
        order: 3,
      });
      reply = ok();
      await client().profile.deletePhoto('ph9');
      await client().profile.setPrimaryPhoto('ph9');
      await client().profile.reorderPhotos([{ id: 'ph9', order: 0 }]);
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /api/profile/me/photos',
        'DELETE /api/profile/me/photos/ph9',
        'PUT /api/profile/me/photos/ph9/primary',
        'PUT /api/profile/me/photos/reorder',
      ]);
      expect(server.requests[0].body).toEqual({ url: '/x.webp', isPrimary: false });
      expect(server.requests[3].body).toEqual({ photoOrders: [{ id: 'ph9', order: 0 }] });
    });

    it('has the spec fallbacks for the profile photo calls', async () => {
      reply = fails(500);
      await expect(client().profile.addPhoto({ url: '/x' })).rejects.toThrow('Failed to add photo');
      await expect(client().profile.deletePhoto('a')).rejects.toThrow('Failed to delete photo');
      await expect(client().profile.setPrimaryPhoto('a')).rejects.toThrow('Failed to set primary photo');
      await expect(client().profile.reorderPhotos([])).rejects.toThrow('Failed to reorder photos');
    });
  });

  describe('photos', () => {
    it('lists photos in order, wrapped or not', async () => {
      reply = ok([
        { id: 'b', url: '/b', isPrimary: false, order: 1 },
        { id: 'a', url: '/a', is_primary: true, order: 0 },
      ]);
      await expect(client().photos.list()).resolves.toEqual([
        { id: 'a', url: '/a', isPrimary: true, order: 0 },
        { id: 'b', url: '/b', isPrimary: false, order: 1 },
      ]);
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/photos' });
      reply = ok({ photos: [{ id: 'c', url: '/c', isPrimary: true, order: 0 }] });
      await expect(client().photos.list()).resolves.toHaveLength(1);
      reply = fails(500);
      await expect(client().photos.list()).rejects.toThrow('Failed to fetch photos');
    });

    it('uploads multipart field photo with the token passed in, and the onboarding context', async () => {
      reply = ok(
        {
          url: '/api/photos/files/n1/large.webp',
          photo: { id: 'n1', url: '/api/photos/files/n1/large.webp', isPrimary: true, order: 0 },
        },
        201,
      );
      const file = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'me.jpg', { type: 'image/jpeg' });
      const result = await client().photos.upload(file, { token: 'legacy-token', context: 'onboarding' });
      expect(result).toEqual({
        url: '/api/photos/files/n1/large.webp',
        photo: { id: 'n1', url: '/api/photos/files/n1/large.webp', isPrimary: true, order: 0 },
      });
      const [req] = server.requests;
      expect(req).toMatchObject({ method: 'POST', path: '/api/photos/upload' });
      expect(req.query.get('context')).toBe('onboarding');
      expect(req.headers.authorization).toBe('Bearer legacy-token');
      expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const raw = req.rawBody.toString('latin1');
      expect(raw).toContain('Content-Disposition: form-data; name="photo"; filename="me.jpg"');
      expect(raw).toContain('Content-Type: image/jpeg');
      expect(req.rawBody.includes(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);

      await client().photos.upload(new Blob(['x'], { type: 'image/png' }), { token: 'legacy-token' });
      expect(server.requests[1].query.has('context')).toBe(false);
    });

    it('refuses to upload without a token and never calls the server', async () => {
      await expect(client().photos.upload(new Blob(['x']), { token: null })).rejects.toThrow(
        'Not authenticated',
      );
      expect(server.requests).toHaveLength(0);
    });

    it("upload failures: the server's error, else the call's fallback", async () => {
      const file = new Blob(['x'], { type: 'image/png' });
      reply = fails(400, { error: 'Image must be less than 5MB' });
      await expect(client().photos.upload(file, { token: 't' })).rejects.toThrow(
        'Image must be less than 5MB',
      );
      reply = fails(500);
      await expect(client().photos.upload(file, { token: 't' })).rejects.toThrow('Failed to upload photo');
      await expect(
        client().photos.upload(file, { token: 't', fallbackMessage: 'Upload failed' }),
      ).rejects.toThrow('Upload failed');
    });

    it('deletes, sets primary and reorders under /api/photos', async () => {
      reply = ok();
      await client().photos.delete('p 1');
      await client().photos.setPrimary('p2');
      await client().photos.reorder([
        { id: 'p2', order: 0 },
        { id: 'p3', order: 1 },
      ]);
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'DELETE /api/photos/p%201',
        'PUT /api/photos/p2/primary',
        'PUT /api/photos/reorder',
      ]);
      expect(server.requests[2].body).toEqual({
        photoOrders: [
          { id: 'p2', order: 0 },
          { id: 'p3', order: 1 },
        ],
      });
      reply = fails(500);
      await expect(client().photos.delete('a')).rejects.toThrow('Failed to delete photo');
      await expect(client().photos.setPrimary('a')).rejects.toThrow('Failed to set primary photo');
      await expect(client().photos.reorder([])).rejects.toThrow('Failed to reorder photos');
    });

    it('prefixes relative photo URLs with the API base', () => {
      const photos = createApiClient({ baseUrl: 'http://localhost:3000/' }).photos;
      expect(photos.fileUrl('/api/photos/files/a/large.webp')).toBe(
        'http://localhost:3000/api/photos/files/a/large.webp',
      );
      expect(photos.fileUrl('https://cdn.example/a.webp')).toBe('https://cdn.example/a.webp');
      expect(photos.fileUrl('blob:http://localhost:4200/123')).toBe('blob:http://localhost:4200/123');
      expect(photos.fileUrl(null)).toBeUndefined();
      expect(createApiClient({ baseUrl: '' }).photos.fileUrl('/api/x.webp')).toBe('/api/x.webp');
    });

    describe('sized photo files', () => {
      const id = '6f1c2d1e-0000-4000-8000-000000000000';
      const large = `/api/photos/files/${id}/large.webp`;
      const onApi = (path: string) => `http://localhost:3000${path}`;
      const photos = createApiClient({ baseUrl: 'http://localhost:3000/' }).photos;

      it('asks the API for the size the box needs, from the stored URL or one already on its origin', () => {
        expect(photos.fileUrl(large, 'thumb')).toBe(onApi(`/api/photos/files/${id}/thumb.webp`));
        expect(photos.fileUrl(large, 'medium')).toBe(onApi(`/api/photos/files/${id}/medium.webp`));
        expect(photos.fileUrl(`/api/photos/files/${id}/thumb.webp`, 'large')).toBe(onApi(large));
        expect(photos.fileUrl(onApi(large), 'thumb')).toBe(onApi(`/api/photos/files/${id}/thumb.webp`));
        // Without a size, the URL is loaded as the server gave it.
        expect(photos.fileUrl(large)).toBe(onApi(large));
        // On the page's own origin (no base), the path stays relative.
        expect(createApiClient({ baseUrl: '' }).photos.fileUrl(large, 'thumb')).toBe(`/api/photos/files/${id}/thumb.webp`);
      });

      it('leaves every URL that is not exactly a photo file of this API as it is', () => {
        for (const url of [
          'https://cdn.example/api/photos/files/a/large.webp',
          'http://localhost:3000.evil.example/api/photos/files/a/large.webp',
          '//evil.example/api/photos/files/a/large.webp',
          'data:image/webp;base64,AAAA',
          'blob:http://localhost:4200/123',
        ]) {
          expect(photos.fileUrl(url, 'thumb')).toBe(url);
          expect(photos.srcSet(url)).toBeUndefined();
        }
        for (const path of [
          `/api/photos/files/${id}/large.webp/../x`,
          `/api/photos/files/${id}/large.webp?v=2`,
          `/api/photos/files/${id}/large.webp#top`,
          `/api/photos/files/../../admin/large.webp`,
          `/api/photos/files/a%2F..%2Fb/large.webp`,
          `/api/photos/files/${id}/huge.webp`,
          `/api/photos/files/${id}/large.jpg`,
          `/x/api/photos/files/${id}/large.webp`,
        ]) {
          expect(photos.fileUrl(path, 'thumb')).toBe(onApi(path));
          expect(photos.srcSet(path)).toBeUndefined();
        }
        expect(photos.fileUrl(null, 'thumb')).toBeUndefined();
        expect(photos.srcSet(undefined)).toBeUndefined();
      });

      it('offers every stored size to srcset, smallest first, each with its longest side', () => {
        const srcSet = `${onApi(`/api/photos/files/${id}/thumb.webp`)} 200w, ${onApi(`/api/photos/files/${id}/medium.webp`)} 600w, ${onApi(large)} 1200w`;
        expect(photos.srcSet(large)).toBe(srcSet);
        expect(photos.srcSet(onApi(`/api/photos/files/${id}/medium.webp`))).toBe(srcSet);
        // Destructured, as a hook hands it on.
        const { srcSet: srcSetOf } = photos;
        expect(srcSetOf(large)).toBe(srcSet);
      });

      it('sizes a path for a caller that places it on the API origin itself', () => {
        expect(photoPathAtSize(large, 'medium')).toBe(`/api/photos/files/${id}/medium.webp`);
        expect(photoPathAtSize(`${large}/../x`, 'medium')).toBe(`${large}/../x`);
        expect(photoPathAtSize('https://cdn.example/p.webp', 'thumb')).toBe('https://cdn.example/p.webp');
      });
    });
  });

  describe('preferences', () => {
    it('reads match preferences, filling the defaults', async () => {
      reply = ok({ minAge: 25, genderPreference: ['female'] });
      await expect(client().preferences.getMine()).resolves.toEqual({
        ...DEFAULT_PREFERENCES,
        minAge: 25,
        genderPreference: ['female'],
      });
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/preferences/me' });
      reply = fails(500);
      await expect(client().preferences.getMine()).rejects.toThrow('Failed to get preferences');
    });

    it('saves match preferences with PUT', async () => {
      const prefs = { ...DEFAULT_PREFERENCES, maxDistance: 120, genderPreference: ['male', 'other'] };
      reply = ok(prefs);
      await expect(client().preferences.updateMine(prefs)).resolves.toEqual(prefs);
      expect(server.requests[0]).toMatchObject({ method: 'PUT', path: '/api/preferences/me', body: prefs });
      reply = fails(500);
      await expect(client().preferences.updateMine(prefs)).rejects.toThrow('Failed to update preferences');
    });

    it('reads and saves the whole filter object', async () => {
      reply = ok({ minAge: 30, minHeight: 160, petsPreference: ['dog'] });
      const filters = await client().preferences.getFilters();
      expect(filters).toEqual({
        ...DEFAULT_FILTER_PREFERENCES,
        minAge: 30,
        minHeight: 160,
        petsPreference: ['dog'],
      });
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/profile/me/preferences' });

      const next: FilterPreferencesDto = { ...filters, maxHeight: null, smokingPreference: ['never'] };
      reply = ok({ message: 'Preferences updated' });
      await expect(client().preferences.updateFilters(next)).resolves.toEqual(next);
      expect(server.requests[1]).toMatchObject({
        method: 'PUT',
        path: '/api/profile/me/preferences',
        body: next,
      });

      reply = fails(400, { error: 'minAge must not be greater than maxAge' });
      await expect(client().preferences.updateFilters(next)).rejects.toThrow(
        'minAge must not be greater than maxAge',
      );
      reply = fails(500);
      await expect(client().preferences.getFilters()).rejects.toThrow('Failed to get preferences');
    });
  });

  describe('place search for the location field (GET /api/profile/places)', () => {
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
      expect({ method: request.method, path: request.path }).toEqual({
        method: 'GET',
        path: '/api/profile/places',
      });
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
});
