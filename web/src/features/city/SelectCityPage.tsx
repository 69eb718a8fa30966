import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  CITY_SEARCH_DEBOUNCE_MS,
  CITY_SEARCH_PLACEHOLDER,
  LOCATION_DENIED_TEXT,
  LOCATION_FAILED_TEXT,
  SELECT_CITY_TITLE,
  groupFeedPath,
} from '../../shared/constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { useDebounced } from '../../shared/hooks/useDebounced';
import { Button } from '../../shared/ui/Button';
import { LocationIcon } from '../../shared/ui/icons';
import { Loading } from '../../shared/ui/Loading';
import { inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { rememberGroup } from '../feed/rememberedGroup';
import { groupNear } from '../group/groupApi';
import { searchCities, type City } from './cityApi';
import { MAP_BOX_CLASS } from './mapBox';

// Leaflet is most of the map's weight: it loads on its own, after the search box is usable.
const CityMap = lazy(async () => ({ default: (await import('./CityMap')).CityMap }));

export function SelectCityPage() {
  const ui = useUi();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const search = useDebounced(query.trim(), CITY_SEARCH_DEBOUNCE_MS);

  const choose = useAsyncAction(async (latLong: [number, number]) => {
    try {
      const { group } = await ui.blockWhile(groupNear(latLong));
      rememberGroup(group);
      navigate(groupFeedPath(group._id));
    } catch (error) {
      ui.showError(error);
    }
  });

  const locate = () => {
    if (!navigator.geolocation) {
      ui.showError(LOCATION_FAILED_TEXT);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => void choose.run([coords.latitude, coords.longitude]),
      (error) => ui.showError(error.code === error.PERMISSION_DENIED ? LOCATION_DENIED_TEXT : LOCATION_FAILED_TEXT),
    );
  };

  return (
    <div className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight">{SELECT_CITY_TITLE}</h1>
      <div className="flex gap-2">
        <input
          type="search"
          aria-label="City"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={CITY_SEARCH_PLACEHOLDER}
          className={inputClass}
        />
        <Button variant="secondary" className="h-11 shrink-0" onClick={locate} aria-label="Use my location">
          <LocationIcon />
        </Button>
      </div>
      {search && <CityResults query={search} onChoose={(city) => void choose.run([city.latitude, city.longitude])} />}
      <Suspense fallback={<div className={MAP_BOX_CLASS} aria-label="Loading the map" />}>
        <CityMap onPick={(latLong) => void choose.run(latLong)} />
      </Suspense>
    </div>
  );
}

function CityResults({ query, onChoose }: { query: string; onChoose: (city: City) => void }) {
  const cities = useAsyncData(query, (signal) => searchCities(query, signal));
  if (cities.status === 'loading') return <Loading height={64} />;
  if (cities.status === 'error') return <p className="text-sm text-red-600">Could not search cities.</p>;
  if (cities.data.cities.length === 0) return <p className="text-sm text-slate-500">No city found.</p>;
  return (
    <ul aria-label="Cities" className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200">
      {cities.data.cities.map((city) => (
        <li key={city.geonameid}>
          <button type="button" onClick={() => onChoose(city)} className="flex w-full items-baseline gap-2 px-4 py-3 text-left hover:bg-slate-50">
            <span className="font-medium text-slate-900">{city.name}</span>
            <span className="text-sm text-slate-500">{city.country}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
