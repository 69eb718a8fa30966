import { ADDRESS_MAX_LENGTH, ADDRESS_NOT_FOUND_TEXT, addressFailedText } from '../constants';
import { describeError, isApiError } from '../errors';
import type { LatLong } from '../ui/mapTypes';
import type { City } from './cityApi';
import type { Place } from './locationApi';

/** What the picker holds: the address as typed or found, and the point chosen (none at first). */
export interface PlaceDraft {
  address: string;
  point: LatLong | null;
}

/** The spec's geocode failure texts; a request that got no reply says so instead of "status 0". */
export function geocodeErrorText(error: unknown): string {
  if (!isApiError(error) || error.status === 0) return describeError(error).join(' ');
  return error.status === 404 ? ADDRESS_NOT_FOUND_TEXT : addressFailedText(error.status);
}

/** A city chosen from the search, named as reverse geocoding names places. */
export function cityAddress(city: Pick<City, 'name' | 'country_name'>): string {
  return `${city.name}, ${city.country_name}`;
}

const inRange = (value: number, limit: number) => Number.isFinite(value) && Math.abs(value) <= limit;

/** The place to send, or null while the draft lacks an address or a point on the map. */
export function placeToShare({ address, point }: PlaceDraft): Place | null {
  const text = address.trim();
  if (!text || text.length > ADDRESS_MAX_LENGTH || !point) return null;
  const [latitude, longitude] = point;
  if (!inRange(latitude, 90) || !inRange(longitude, 180)) return null;
  return { address: text, latitude, longitude };
}
