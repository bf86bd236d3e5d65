import { PLACE_QUERY_MAX_LENGTH, PLACE_SUGGESTIONS_DEFAULT_LIMIT, type PlaceSuggestionDto } from '@mate/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';

/** Wait after the last keystroke before asking: one request per pause, not one per letter. */
export const PLACE_SEARCH_DEBOUNCE_MS = 250;
/** Fewer letters than this match too many places to be worth a request. */
const MIN_QUERY_LENGTH = 2;

const NO_PLACES: PlaceSuggestionDto[] = [];

/**
 * The places the server offers for what the member has typed (GET /api/profile/places), asked
 * once typing pauses. The last answer stays while the next one loads, so the list does not
 * flicker; a failed search offers nothing (the member can still type any place).
 */
export function usePlaceSuggestions(typed: string): PlaceSuggestionDto[] {
  const api = useApi();
  const [query, setQuery] = useState(typed.trim());
  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed.trim()), PLACE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const enabled = query.length >= MIN_QUERY_LENGTH && query.length <= PLACE_QUERY_MAX_LENGTH;
  const places = useQuery({
    queryKey: ['places', query.toLowerCase()],
    queryFn: () => api.profile.searchPlaces(query, PLACE_SUGGESTIONS_DEFAULT_LIMIT),
    enabled,
    staleTime: Infinity,
    retry: false,
    placeholderData: keepPreviousData,
  });
  return enabled ? (places.data ?? NO_PLACES) : NO_PLACES;
}
