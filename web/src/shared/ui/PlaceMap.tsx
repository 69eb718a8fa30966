import { lazy, Suspense } from 'react';

export type LatLong = readonly [latitude: number, longitude: number];

export interface PlaceMapProps {
  /** Where the map looks. A new value moves the view there, even an equal one (a place chosen again). */
  center: LatLong;
  zoom: number;
  /** Where the marker stands. */
  marker: LatLong;
  /** A click on the map reports the point; the caller moves the marker. */
  onPick: (point: LatLong) => void;
  /** Height classes of the map's box, which the placeholder keeps while Leaflet loads. */
  heightClass?: string;
  testId: string;
}

// Leaflet is about a quarter of the app's code: it comes in a chunk of its own, once a map is shown.
const LeafletMap = lazy(async () => ({ default: (await import('./LeafletMap')).LeafletMap }));

const MAP_BOX_CLASS = 'z-0 w-full rounded-2xl bg-slate-200 ring-1 ring-slate-200';

/** An OpenStreetMap map with one marker. Tiles that fail to load leave a grey map. */
export function PlaceMap({ heightClass = 'h-72 sm:h-96', ...map }: PlaceMapProps) {
  const boxClass = `${MAP_BOX_CLASS} ${heightClass}`;
  return (
    <Suspense fallback={<div className={boxClass} aria-label="Loading the map" />}>
      <LeafletMap {...map} className={boxClass} />
    </Suspense>
  );
}
