import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply } from '../../test/fetchMock';
import type { PlaceMapProps } from '../ui/mapTypes';
import { AddressPickerDialog } from './AddressPickerDialog';

// Leaflet needs a real layout; a click on this stand-in is a click on the map at one point.
vi.mock('../ui/PlaceMap', () => ({
  PlaceMap: ({ onPick, testId }: PlaceMapProps) => (
    <button type="button" data-testid={testId} onClick={() => onPick([-1.3, 36.8])}>
      map
    </button>
  ),
}));

const NAIROBI = { geonameid: 184745, name: 'Nairobi', country: 'KE', country_name: 'Kenya', latitude: -1.28333, longitude: 36.81667, population: 1, group_id: 'nairobi-ke' };

function device(outcome: { coords: { latitude: number; longitude: number } } | { code: number }) {
  const geolocation = {
    getCurrentPosition: (success: PositionCallback, failure: PositionErrorCallback) =>
      'coords' in outcome ? success(outcome as GeolocationPosition) : failure(outcome as GeolocationPositionError),
  };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
}

function openPicker(geocode: FakeReply = { body: { location: { address: 'Nairobi, Kenya', latitude: -1.3, longitude: 36.8 } } }) {
  const calls = mockFetch((call) => (call.url.pathname === '/api/cities' ? { body: { cities: [NAIROBI] } } : geocode));
  const onShare = vi.fn();
  const onClose = vi.fn();
  render(<AddressPickerDialog onShare={onShare} onClose={onClose} />);
  return { calls, onShare, onClose };
}

const address = () => screen.getByLabelText<HTMLTextAreaElement>('Address');
const sendButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send location' });

describe('address picker', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('fills the address from a searched city and shares that place', async () => {
    const { calls, onShare, onClose } = openPicker();
    expect(sendButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Search for a city'), { target: { value: 'Nai' } });
    fireEvent.click(await screen.findByRole('button', { name: /^Nairobi/ }));
    expect(address().value).toBe('Nairobi, Kenya');
    expect(calls.find((call) => call.url.pathname === '/api/cities')?.url.searchParams.get('q')).toBe('Nai');
    fireEvent.change(address(), { target: { value: 'Kenyatta Avenue, Nairobi' } });
    fireEvent.click(sendButton());
    expect(onShare).toHaveBeenCalledWith({ address: 'Kenyatta Avenue, Nairobi', latitude: -1.28333, longitude: 36.81667 });
    expect(onClose).toHaveBeenCalled();
  });

  it('names the device position by reverse geocoding', async () => {
    device({ coords: { latitude: -1.3, longitude: 36.8 } });
    const { calls, onShare } = openPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Use my location' }));
    await waitFor(() => expect(address().value).toBe('Nairobi, Kenya'));
    const lookup = calls.find((call) => call.url.pathname === '/api/geocode/reverse');
    expect(Object.fromEntries(lookup?.url.searchParams ?? [])).toEqual({ latitude: '-1.3', longitude: '36.8' });
    fireEvent.click(sendButton());
    expect(onShare).toHaveBeenCalledWith({ address: 'Nairobi, Kenya', latitude: -1.3, longitude: 36.8 });
  });

  it.each([
    [1, 'Please allow access to your location.'],
    [2, 'Unable to fetch your location.'],
  ])('explains a failed position request (code %i)', async (code, text) => {
    device({ code });
    openPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Use my location' }));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(sendButton().disabled).toBe(true);
  });

  it.each([
    [404, 'Address not found'],
    [500, 'Failed to load address: 500'],
  ])('explains a failed address lookup (%i) and lets the address be typed', async (status, text) => {
    const { onShare } = openPicker({ status, body: { errors: { location: 'Address not found' } } });
    fireEvent.click(screen.getByTestId('address-map'));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    fireEvent.change(address(), { target: { value: 'Behind the market' } });
    fireEvent.click(sendButton());
    expect(onShare).toHaveBeenCalledWith({ address: 'Behind the market', latitude: -1.3, longitude: 36.8 });
  });

  it('keeps an address typed while the lookup ran', async () => {
    let answer: (reply: FakeReply) => void = () => undefined;
    mockFetch(() => new Promise<FakeReply>((resolve) => (answer = resolve)));
    render(<AddressPickerDialog onShare={vi.fn()} onClose={vi.fn()} />);
    fireEvent.click(screen.getByTestId('address-map'));
    fireEvent.change(address(), { target: { value: 'My shop' } });
    answer({ body: { location: { address: 'Nairobi, Kenya', latitude: -1.3, longitude: 36.8 } } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(address().value).toBe('My shop');
  });

  it('shows and hides the map', () => {
    openPicker();
    expect(screen.queryByTestId('address-map')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Hide map' }));
    expect(screen.queryByTestId('address-map')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show map' }));
    expect(screen.queryByTestId('address-map')).not.toBeNull();
  });
});
