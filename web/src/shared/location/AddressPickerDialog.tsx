import { useState } from 'react';
import {
  ADDRESS_MAP_ZOOM,
  ADDRESS_MAX_LENGTH,
  ADDRESS_PICKER_HINT,
  ADDRESS_PICKER_TITLE,
  ADDRESS_SEARCH_PLACEHOLDER,
  CITY_SEARCH_DEBOUNCE_MS,
} from '../constants';
import { useDebounced } from '../hooks/useDebounced';
import { Button } from '../ui/Button';
import { LocateIcon, MapIcon } from '../ui/icons';
import { Modal } from '../ui/Modal';
import { PlaceMap } from '../ui/PlaceMap';
import { Field, inputClass } from '../ui/TextField';
import { CityResults } from './CityResults';
import type { Place } from './locationApi';
import { useAddressPicker } from './useAddressPicker';

interface AddressPickerDialogProps {
  onShare: (place: Place) => void;
  onClose: () => void;
}

/** The spec's address picker: a text area for the address, locate-me, a map toggle and city search. */
export function AddressPickerDialog({ onShare, onClose }: AddressPickerDialogProps) {
  const picker = useAddressPicker();
  const [query, setQuery] = useState('');
  const [mapShown, setMapShown] = useState(true);
  const search = useDebounced(query.trim(), CITY_SEARCH_DEBOUNCE_MS);

  const share = () => {
    if (!picker.place) return;
    onShare(picker.place);
    onClose();
  };

  return (
    <Modal title={ADDRESS_PICKER_TITLE} onClose={onClose}>
      <div className="space-y-4">
        <input
          type="search"
          aria-label="Search for a city"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={ADDRESS_SEARCH_PLACEHOLDER}
          className={inputClass}
        />
        {search && (
          <CityResults
            query={search}
            onChoose={(city) => {
              picker.chooseCity(city);
              setQuery('');
            }}
          />
        )}
        <Field id="picked-address" label="Address">
          <textarea
            id="picked-address"
            rows={2}
            maxLength={ADDRESS_MAX_LENGTH}
            value={picker.address}
            onChange={(event) => picker.editAddress(event.target.value)}
            className={`${inputClass} h-auto resize-none py-2`}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" busy={picker.locating} onClick={() => void picker.locate()}>
            {!picker.locating && <LocateIcon className="size-4" />}
            Use my location
          </Button>
          <Button variant="secondary" size="sm" aria-pressed={mapShown} onClick={() => setMapShown((shown) => !shown)}>
            <MapIcon className="size-4" />
            {mapShown ? 'Hide map' : 'Show map'}
          </Button>
        </div>
        {mapShown && (
          <PlaceMap
            testId="address-map"
            heightClass="h-52 sm:h-64"
            center={picker.center}
            zoom={ADDRESS_MAP_ZOOM}
            marker={picker.point ?? picker.center}
            onPick={(point) => void picker.pickPoint(point)}
          />
        )}
        {picker.problem ? (
          <p role="alert" className="text-sm text-red-600">
            {picker.problem}
          </p>
        ) : (
          !picker.place && <p className="text-sm text-slate-500">{ADDRESS_PICKER_HINT}</p>
        )}
        <Button size="lg" className="w-full" disabled={!picker.place} onClick={share}>
          Send location
        </Button>
      </div>
    </Modal>
  );
}
