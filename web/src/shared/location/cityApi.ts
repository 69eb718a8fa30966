import { api } from '../api';

export interface City {
  geonameid: number;
  name: string;
  /** ISO code; `country_name` is its English name. */
  country: string;
  country_name: string;
  latitude: number;
  longitude: number;
  population: number;
  group_id: string | null;
}

export function searchCities(q: string, signal?: AbortSignal): Promise<{ cities: City[] }> {
  return api.get<{ cities: City[] }>('/api/cities', { q }, { signal });
}
