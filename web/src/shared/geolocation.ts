import { LOCATION_DENIED_TEXT, LOCATION_FAILED_TEXT } from './constants';
import type { LatLong } from './ui/mapTypes';

// GeolocationPositionError.PERMISSION_DENIED; that global is missing where there is no geolocation.
const PERMISSION_DENIED = 1;

/** The spec's text for a failed position request: a refusal, or anything else. */
export function geolocationErrorText(error: Pick<GeolocationPositionError, 'code'>): string {
  return error.code === PERMISSION_DENIED ? LOCATION_DENIED_TEXT : LOCATION_FAILED_TEXT;
}

/** The device's position, or a rejection whose message is the text to show. */
export function currentPosition(geolocation: Geolocation | undefined = navigator.geolocation): Promise<LatLong> {
  return new Promise((resolve, reject) => {
    if (!geolocation) {
      reject(new Error(LOCATION_FAILED_TEXT));
      return;
    }
    geolocation.getCurrentPosition(
      ({ coords }) => resolve([coords.latitude, coords.longitude]),
      (error) => reject(new Error(geolocationErrorText(error))),
    );
  });
}
