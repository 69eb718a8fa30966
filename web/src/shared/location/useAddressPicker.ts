import { useCallback, useEffect, useRef, useState } from 'react';
import { ADDRESS_MAP_CENTER } from '../constants';
import { currentPosition } from '../geolocation';
import type { LatLong } from '../ui/mapTypes';
import type { City } from './cityApi';
import { reverseGeocode } from './locationApi';
import { cityAddress, geocodeErrorText, placeToShare } from './place';

/**
 * The address picker's state: the address (editable), the point chosen, where the map looks,
 * and what went wrong. A point from the map or the device is named by reverse geocoding; a
 * lookup overtaken by a newer choice or by typing is dropped, so it never overwrites them.
 */
export function useAddressPicker() {
  const [address, setAddress] = useState('');
  const [point, setPoint] = useState<LatLong | null>(null);
  const [center, setCenter] = useState<LatLong>(ADDRESS_MAP_CENTER);
  const [problem, setProblem] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const lookup = useRef<AbortController | null>(null);

  const dropLookup = useCallback(() => {
    lookup.current?.abort();
    lookup.current = null;
  }, []);
  useEffect(() => dropLookup, [dropLookup]);

  const pickPoint = useCallback(
    async (at: LatLong) => {
      dropLookup();
      const controller = new AbortController();
      lookup.current = controller;
      setPoint(at);
      setProblem(null);
      try {
        const { location } = await reverseGeocode(at, controller.signal);
        if (!controller.signal.aborted) setAddress(location.address);
      } catch (error) {
        if (!controller.signal.aborted) setProblem(geocodeErrorText(error));
      }
    },
    [dropLookup],
  );

  const locate = useCallback(async () => {
    setProblem(null);
    setLocating(true);
    try {
      const at = await currentPosition();
      setCenter(at);
      await pickPoint(at);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setLocating(false);
    }
  }, [pickPoint]);

  const chooseCity = useCallback(
    (city: City) => {
      dropLookup();
      const at: LatLong = [city.latitude, city.longitude];
      setCenter(at);
      setPoint(at);
      setAddress(cityAddress(city));
      setProblem(null);
    },
    [dropLookup],
  );

  const editAddress = useCallback(
    (text: string) => {
      dropLookup();
      setAddress(text);
    },
    [dropLookup],
  );

  return {
    address,
    editAddress,
    point,
    center,
    problem,
    locating,
    locate,
    pickPoint,
    chooseCity,
    /** The place the Send button shares, null until there is an address and a point. */
    place: placeToShare({ address, point }),
  };
}
