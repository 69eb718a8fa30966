import { lazy, Suspense } from 'react';
import { importPart } from '../staleBuild';
import type { PlaceMapProps } from './mapTypes';

// Leaflet is about a quarter of the app's code: it comes in a chunk of its own, once a map is shown.
const LeafletMap = lazy(async () => ({ default: await importPart(async () => (await import('./LeafletMap')).LeafletMap) }));

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
