import { describe, expect, it } from 'vitest';
import { LOCATION_DENIED_TEXT, LOCATION_FAILED_TEXT } from './constants';
import { currentPosition } from './geolocation';

/** A device that answers every position request with `outcome`. */
function device(outcome: { coords: { latitude: number; longitude: number } } | { code: number }): Geolocation {
  return {
    getCurrentPosition: (success, failure) => {
      if ('coords' in outcome) success(outcome as GeolocationPosition);
      else failure?.(outcome as GeolocationPositionError);
    },
  } as Geolocation;
}

describe('current position', () => {
  it('is the device latitude and longitude', async () => {
    await expect(currentPosition(device({ coords: { latitude: -1.3, longitude: 36.8 } }))).resolves.toEqual([-1.3, 36.8]);
  });

  it('asks for access when the user refused it', async () => {
    await expect(currentPosition(device({ code: 1 }))).rejects.toThrow(LOCATION_DENIED_TEXT);
  });

  it.each([2, 3])('says it could not be fetched for any other failure (code %i)', async (code) => {
    await expect(currentPosition(device({ code }))).rejects.toThrow(LOCATION_FAILED_TEXT);
  });

  it('says it could not be fetched where the browser has no geolocation (as in jsdom)', async () => {
    expect(navigator.geolocation).toBeUndefined();
    await expect(currentPosition()).rejects.toThrow(LOCATION_FAILED_TEXT);
  });
});
