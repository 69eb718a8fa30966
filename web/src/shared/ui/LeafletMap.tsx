import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MAP_ATTRIBUTION, MAP_TILE_URL } from '../constants';
import type { PlaceMapProps } from './mapTypes';
import { useLatest } from '../hooks/useLatest';

const MAX_ZOOM = 18;

/** PlaceMap's Leaflet part, loaded on demand: import PlaceMap, never this module. */
export function LeafletMap({ center, zoom, marker, onPick, testId, className }: Omit<PlaceMapProps, 'heightClass'> & { className: string }) {
  const container = useRef<HTMLDivElement>(null);
  const view = useRef<{ map: L.Map; marker: L.CircleMarker } | null>(null);
  const latest = useLatest({ center, zoom, marker, onPick });

  useEffect(() => {
    if (!container.current) return undefined;
    const start = latest.current;
    const map = L.map(container.current).setView([...start.center], start.zoom);
    L.tileLayer(MAP_TILE_URL, { attribution: MAP_ATTRIBUTION, maxZoom: MAX_ZOOM }).addTo(map);
    // A circle marker needs no image files, which bundlers do not copy for Leaflet's pin.
    const pin = L.circleMarker([...start.marker], { radius: 8, color: '#4f46e5' }).addTo(map);
    map.on('click', (event: L.LeafletMouseEvent) => latest.current.onPick([event.latlng.lat, event.latlng.lng]));
    view.current = { map, marker: pin };
    return () => {
      view.current = null;
      map.remove();
    };
  }, [latest]);

  useEffect(() => {
    view.current?.map.setView([...center], zoom);
  }, [center, zoom]);

  const [markerLatitude, markerLongitude] = marker;
  useEffect(() => {
    view.current?.marker.setLatLng([markerLatitude, markerLongitude]);
  }, [markerLatitude, markerLongitude]);

  return <div ref={container} data-testid={testId} className={className} />;
}
