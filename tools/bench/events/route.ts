import { EVENT_CATALOGUE, SERVICES, type ServiceName } from '@mate/contracts';

/**
 * matching-service is profile.updated's consumer to come (the catalogue lists it under `later`,
 * so nothing routes to it yet). The bench routes it now, in its own processes only, so the
 * platform's real relay and consumer carry the events it measures.
 */
export function routeProfileUpdatesToMatching(): void {
  const definition = EVENT_CATALOGUE['profile.updated'] as { consumers: readonly ServiceName[] };
  definition.consumers = [SERVICES.matching];
}
