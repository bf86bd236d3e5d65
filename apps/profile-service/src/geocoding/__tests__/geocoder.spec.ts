import { Geocoder, buildPlaceIndex, geocodeWith, loadCityIndex, searchPlaces, type Place } from '../geocoder';
import { placeKey } from '../regions';

jest.setTimeout(30_000);

/** Kilometres between two points (haversine), to say "near" without exact floats. */
function km(a: { latitude: number; longitude: number }, b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a.latitude) * rad;
  const dLng = (b[1] - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe('geocoding against the whole GeoNames list', () => {
  const geocoder = new Geocoder();

  it('finds Paris, France near 48.85 / 2.35', async () => {
    const paris = await geocoder.geocode('Paris, France');
    expect(paris).toMatchObject({ name: 'Paris', country: 'FR' });
    expect(km(paris ?? { latitude: 0, longitude: 0 }, [48.85, 2.35])).toBeLessThan(5);
  });

  it('reads a US state abbreviation: Springfield, IL is in Illinois, not the bigger one in Missouri', async () => {
    const springfield = await geocoder.geocode('Springfield, IL');
    expect(springfield).toMatchObject({ country: 'US', adminCode: 'IL' });
    expect(km(springfield ?? { latitude: 0, longitude: 0 }, [39.8, -89.65])).toBeLessThan(10);
    expect(await geocoder.geocode('Springfield, Illinois')).toEqual(springfield);
    expect(await geocoder.geocode('springfield,  il ')).toEqual(springfield);
    expect(await geocoder.geocode('Springfield')).toMatchObject({ adminCode: 'MO' });
  });

  it('reads a two-letter qualifier as a country when the state has no such city', async () => {
    expect(await geocoder.geocode('Haifa, IL')).toMatchObject({ country: 'IL' });
    expect(await geocoder.geocode('Tbilisi, Georgia')).toMatchObject({ country: 'GE' });
    expect(await geocoder.geocode('Atlanta, Georgia')).toMatchObject({ country: 'US', adminCode: 'GA' });
  });

  it('knows country names, common aliases, ISO codes, regions and accents', async () => {
    expect(await geocoder.geocode('London, UK')).toMatchObject({ country: 'GB', adminCode: 'ENG' });
    expect(await geocoder.geocode('London, Ontario')).toMatchObject({ country: 'CA' });
    expect(await geocoder.geocode('London, Canada')).toMatchObject({ country: 'CA' });
    expect(await geocoder.geocode('Portland, Oregon, USA')).toMatchObject({ country: 'US', adminCode: 'OR' });
    expect(await geocoder.geocode('Portland, ME')).toMatchObject({ country: 'US', adminCode: 'ME' });
    expect(await geocoder.geocode('Lisbon, Portugal')).toMatchObject({ country: 'PT' });
    expect(await geocoder.geocode('Zurich, Switzerland')).toMatchObject({ name: 'Zürich', country: 'CH' });
    expect(await geocoder.geocode('Sao Paulo, Brazil')).toMatchObject({ country: 'BR' });
    expect(await geocoder.geocode('Manchester, England')).toMatchObject({ country: 'GB' });
    expect(await geocoder.geocode('Sydney, NSW')).toMatchObject({ country: 'AU' });
    expect(await geocoder.geocode('Berlin, DE')).toMatchObject({ country: 'DE' });
    expect(await geocoder.geocode('New York, NY')).toMatchObject({ name: 'New York City', adminCode: 'NY' });
    expect(await geocoder.geocode('Washington, DC')).toMatchObject({ country: 'US', adminCode: 'DC' });
    expect(await geocoder.geocode('St Louis, Missouri')).toMatchObject({ name: 'St. Louis' });
  });

  it('leaves unknown places unresolved', async () => {
    expect(await geocoder.geocode('Atlantis, Nowhere')).toBeNull();
    expect(await geocoder.geocode('Qwertyuiopville')).toBeNull();
    expect(await geocoder.geocode('Paris, Texas, Japan')).toBeNull();
    expect(await geocoder.geocode('  ,  ')).toBeNull();
    expect(await geocoder.geocode('')).toBeNull();
    expect(await geocoder.geocode(null)).toBeNull();
  });
});

describe('places typed without their special letters (issue 25)', () => {
  const geocoder = new Geocoder();

  it.each([
    ['Tromso', 'Tromsø', 'NO'],
    ['TROMSØ', 'Tromsø', 'NO'],
    ['tromsø, norway', 'Tromsø', 'NO'],
    ['  Tromso ,  Norway. ', 'Tromsø', 'NO'],
    ['Tromso, NO', 'Tromsø', 'NO'],
    ['Bodo', 'Bodø', 'NO'],
    ['Hafnarfjordur', 'Hafnarfjörður', 'IS'],
    ['hafnarfjörður, iceland', 'Hafnarfjörður', 'IS'],
    ['Reykjavik', 'Reykjavík', 'IS'],
    ['Lodz, Poland', 'Łódź', 'PL'],
    ['Malmo', 'Malmö', 'SE'],
    ['Aarhus', 'Århus', 'DK'],
    ['Tromsoe', 'Tromsø', 'NO'],
    ['Zuerich', 'Zürich', 'CH'],
    ['NYC', 'New York City', 'US'],
    ['new york city', 'New York City', 'US'],
    ['Saint Louis, MO', 'St. Louis', 'US'],
  ])('finds %s as %s', async (typed, name, country) => {
    expect(await geocoder.geocode(typed)).toMatchObject({ name, country });
  });

  it('keeps a non-place unknown, even folded', async () => {
    expect(await geocoder.geocode('Trømsøville')).toBeNull();
    expect(await geocoder.geocode('Tromso, Iceland')).toBeNull();
    expect(await geocoder.geocode('!!!')).toBeNull();
  });

  it('folds special letters, marks, case and punctuation into one key', () => {
    expect(placeKey('Hafnarfjörður')).toBe('hafnarfjordur');
    expect(placeKey('TROMSØ')).toBe('tromso');
    expect(placeKey('Þingvellir')).toBe('thingvellir');
    expect(placeKey('Æbeltoft')).toBe('aebeltoft');
    expect(placeKey('Straße')).toBe('strasse');
    expect(placeKey('Łódź')).toBe('lodz');
    expect(placeKey('Diyarbakır')).toBe('diyarbakir');
    expect(placeKey('Đà Nẵng')).toBe('da nang');
    expect(placeKey('Bodø!!  (Nordland)')).toBe('bodo nordland');
  });
});

describe('place search while typing (issue 25)', () => {
  it('offers Tromsø for "Trom", "tromso" and "TROMSØ", labelled so the label geocodes back to it', async () => {
    const index = await loadCityIndex();
    for (const typed of ['Trom', 'tromso', 'TROMSØ']) {
      expect(searchPlaces(index, typed, 10).map((p) => p.label)).toContain('Tromsø, Norway');
    }
    const [tromso] = searchPlaces(index, 'tromsø', 1);
    expect(tromso).toEqual({ name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' });
    expect(geocodeWith(index, tromso.label)).toMatchObject({ name: 'Tromsø', country: 'NO' });
  });

  it('answers at most `limit` places, most populous first, one per label', async () => {
    const index = await loadCityIndex();
    const found = searchPlaces(index, 'san', 8);
    expect(found).toHaveLength(8);
    expect(new Set(found.map((p) => p.label)).size).toBe(8);
    expect(found[0].label).toBe('Santiago, Chile');
  });

  it('names the region where the geocoder reads one, and narrows by what follows a comma', async () => {
    const index = await loadCityIndex();
    expect(searchPlaces(index, 'Portland, or', 3)).toEqual([
      { name: 'Portland', country: 'United States', label: 'Portland, Oregon, United States' },
    ]);
    expect(geocodeWith(index, 'Portland, Oregon, United States')).toMatchObject({ adminCode: 'OR' });
    expect(searchPlaces(index, 'nyc', 1)[0]).toMatchObject({ name: 'New York City' });
  });

  it('finds nothing for a non-place or an empty query', async () => {
    const index = await loadCityIndex();
    expect(searchPlaces(index, 'Qwertyuiopville', 8)).toEqual([]);
    expect(searchPlaces(index, ' ,. ', 8)).toEqual([]);
  });
});

describe('geocoding rules on a small index', () => {
  const place = (name: string, country: string, adminCode: string, population: number): Place => ({
    name,
    country,
    adminCode,
    population,
    latitude: population / 1e6,
    longitude: 0,
  });
  const index = buildPlaceIndex([
    place('Springfield', 'US', 'MO', 166_000),
    place('Springfield', 'US', 'IL', 116_000),
    place('Springfield', 'AU', '04', 20_000),
    place('Mexico City', 'MX', '09', 12_000_000),
  ]);

  it('picks the most populous match after narrowing', () => {
    expect(geocodeWith(index, 'Springfield')).toMatchObject({ adminCode: 'MO' });
    expect(geocodeWith(index, 'Springfield, Australia')).toMatchObject({ country: 'AU' });
    expect(geocodeWith(index, 'Springfield, Queensland')).toMatchObject({ country: 'AU' });
    expect(geocodeWith(index, 'Springfield, Texas')).toBeNull();
  });

  it('ignores a qualifier it does not know only when another one is understood', () => {
    expect(geocodeWith(index, 'Springfield, Sangamon County, Illinois')).toMatchObject({ adminCode: 'IL' });
    expect(geocodeWith(index, 'Springfield, Sangamon County')).toBeNull();
  });

  it('finds "X City" from "X"', () => {
    expect(geocodeWith(index, 'Mexico, MX')).toMatchObject({ name: 'Mexico City' });
  });

  it('normalises keys the same way for names and input', () => {
    expect(placeKey('  Sainte-Foy ')).toBe('ste foy');
    expect(placeKey('St. John’s')).toBe('st johns');
    expect(placeKey('Zürich')).toBe('zurich');
  });
});
