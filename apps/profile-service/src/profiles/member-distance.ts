import type { Profile } from './profile.entity';

/** Mean earth radius, as matching-service's `great_circle_km` uses, so both label a pair alike. */
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

type Place = Pick<Profile, 'locationLat' | 'locationLng'>;

/** Great-circle distance in km between two members' geocoded places, or null when either is unknown. */
export function greatCircleKm(a: Place, b: Place): number | null {
  if (a.locationLat === null || a.locationLng === null || b.locationLat === null || b.locationLng === null)
    return null;
  const dLat = (b.locationLat - a.locationLat) * RAD;
  const dLng = (b.locationLng - a.locationLng) * RAD;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.locationLat * RAD) * Math.cos(b.locationLat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
