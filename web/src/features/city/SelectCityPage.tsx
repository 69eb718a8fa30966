import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CITY_MAP_CENTER, CITY_MAP_ZOOM, CITY_SEARCH_PLACEHOLDER, SELECT_CITY_TITLE } from './constants';
import { CITY_SEARCH_DEBOUNCE_MS, SELECT_CITY_NEXT_PARAM, createItemPath, groupFeedPath } from '../../shared/constants';
import { currentPosition } from '../../shared/geolocation';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useDebounced } from '../../shared/hooks/useDebounced';
import { Button } from '../../shared/ui/Button';
import { LocationIcon } from '../../shared/ui/icons';
import { PlaceMap } from '../../shared/ui/PlaceMap';
import type { LatLong } from '../../shared/ui/mapTypes';
import { inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { rememberGroup } from '../../shared/rememberedGroup';
import { groupNear } from '../../shared/entities/group';
import { CityResults } from '../../shared/location/CityResults';

export function SelectCityPage() {
  const ui = useUi();
  const navigate = useNavigate();
  // Reached from "Post something": the city's post form opens, not its feed.
  const [params] = useSearchParams();
  const onward = params.get(SELECT_CITY_NEXT_PARAM) === 'post' ? createItemPath : groupFeedPath;
  const [query, setQuery] = useState('');
  const [marker, setMarker] = useState<LatLong>(CITY_MAP_CENTER);
  const search = useDebounced(query.trim(), CITY_SEARCH_DEBOUNCE_MS);

  const choose = useAsyncAction(async (latLong: LatLong) => {
    try {
      const { group } = await ui.blockWhile(groupNear(latLong));
      rememberGroup(group);
      navigate(onward(group._id));
    } catch (error) {
      ui.showError(error);
    }
  });

  const locate = () =>
    currentPosition().then(
      (latLong) => void choose.run(latLong),
      (error: unknown) => ui.showError(error),
    );

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
        <Button variant="secondary" className="h-11 shrink-0" onClick={() => void locate()} aria-label="Use my location">
          <LocationIcon />
        </Button>
      </div>
      {search && <CityResults query={search} onChoose={(city) => void choose.run([city.latitude, city.longitude])} />}
      <PlaceMap
        testId="city-map"
        center={CITY_MAP_CENTER}
        zoom={CITY_MAP_ZOOM}
        marker={marker}
        onPick={(latLong) => {
          setMarker(latLong);
          void choose.run(latLong);
        }}
      />
    </div>
  );
}
