import { api } from '../../shared/api';

export interface City {
  geonameid: number;
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  population: number;
  group_id: string | null;
}

export function searchCities(q: string, signal?: AbortSignal): Promise<{ cities: City[] }> {
  return api.get<{ cities: City[] }>('/api/cities', { q }, { signal });
}
