import { api } from '../api';
import type { LatLong } from '../ui/mapTypes';

/** The spec's Location (section 3), named Place here so it does not hide the DOM's Location. */
export interface Place {
  address: string;
  latitude: number;
  longitude: number;
}

/** The address of a point: the nearest city of the server's own dataset (404 when none is near). */
export function reverseGeocode([latitude, longitude]: LatLong, signal?: AbortSignal): Promise<{ location: Place }> {
  return api.get('/api/geocode/reverse', { latitude, longitude }, { signal });
}
