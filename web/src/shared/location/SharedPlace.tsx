import { OPEN_MAP_TEXT, openStreetMapUrl } from '../constants';
import { LocationIcon } from '../ui/icons';
import type { Place } from './locationApi';

/** A place shared in a chat: its name if it has one, the address and a link to the map. */
export function SharedPlace({ place }: { place: Place & { name?: string } }) {
  return (
    <div data-testid="shared-place" className="flex items-start gap-2">
      <LocationIcon className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0">
        {place.name && <p className="text-[15px] font-semibold break-words">{place.name}</p>}
        <p className="text-[15px] break-words whitespace-pre-line">{place.address}</p>
        <a
          href={openStreetMapUrl(place.latitude, place.longitude)}
          target="_blank"
          rel="noopener noreferrer"
          className="text-sm font-semibold underline underline-offset-2"
        >
          {OPEN_MAP_TEXT}
        </a>
      </div>
    </div>
  );
}
