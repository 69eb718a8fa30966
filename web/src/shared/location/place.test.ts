import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '../api';
import { ADDRESS_MAX_LENGTH } from '../constants';
import { cityAddress, geocodeErrorText, placeToShare } from './place';

describe('geocode failures', () => {
  it('say the address was not found for a 404', () => {
    expect(geocodeErrorText({ status: 404, errors: { location: 'Address not found' } })).toBe('Address not found');
  });

  it.each([400, 429, 500, 503])('give the status of any other failed reply (%i)', (status) => {
    expect(geocodeErrorText({ status, errors: 'whatever the server said' })).toBe(`Failed to load address: ${status}`);
  });

  it('say the server could not be reached when no reply came', () => {
    expect(geocodeErrorText({ status: 0, errors: NETWORK_ERROR_MESSAGE })).toBe(NETWORK_ERROR_MESSAGE);
  });
});

describe('place to share', () => {
  const nairobi = [-1.286, 36.817] as const;

  it('is the trimmed address with the chosen point', () => {
    expect(placeToShare({ address: '  Moi Avenue, Nairobi \n', point: nairobi })).toEqual({
      address: 'Moi Avenue, Nairobi',
      latitude: -1.286,
      longitude: 36.817,
    });
  });

  it('waits for an address and a point', () => {
    expect(placeToShare({ address: '   ', point: nairobi })).toBeNull();
    expect(placeToShare({ address: 'Moi Avenue', point: null })).toBeNull();
  });

  it('refuses what the server would refuse', () => {
    expect(placeToShare({ address: 'x'.repeat(ADDRESS_MAX_LENGTH + 1), point: nairobi })).toBeNull();
    expect(placeToShare({ address: 'x'.repeat(ADDRESS_MAX_LENGTH), point: nairobi })).not.toBeNull();
    expect(placeToShare({ address: 'Pole', point: [90.5, 0] })).toBeNull();
    expect(placeToShare({ address: 'Dateline', point: [0, -180.1] })).toBeNull();
    expect(placeToShare({ address: 'Nowhere', point: [Number.NaN, 0] })).toBeNull();
    expect(placeToShare({ address: 'Corner', point: [-90, 180] })).not.toBeNull();
  });
});

it('names a city from the search as reverse geocoding does', () => {
  expect(cityAddress({ name: 'Nairobi', country_name: 'Kenya' })).toBe('Nairobi, Kenya');
});
