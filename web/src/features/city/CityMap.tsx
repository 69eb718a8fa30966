import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { CITY_MAP_CENTER, CITY_MAP_ZOOM, MAP_ATTRIBUTION, MAP_TILE_URL } from '../../shared/constants';
import { MAP_BOX_CLASS } from './mapBox';

/** An OpenStreetMap map; a click reports the point. Tiles that fail to load leave a grey map. */
export function CityMap({ onPick }: { onPick: (latLong: [number, number]) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const latestOnPick = useRef(onPick);
  latestOnPick.current = onPick;

  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current).setView([...CITY_MAP_CENTER], CITY_MAP_ZOOM);
    L.tileLayer(MAP_TILE_URL, { attribution: MAP_ATTRIBUTION, maxZoom: 18 }).addTo(map);
    // A circle marker needs no image files, which bundlers do not copy for Leaflet's pin.
    const marker = L.circleMarker([...CITY_MAP_CENTER], { radius: 8, color: '#4f46e5' }).addTo(map);
    map.on('click', (event: L.LeafletMouseEvent) => {
      marker.setLatLng(event.latlng);
      latestOnPick.current([event.latlng.lat, event.latlng.lng]);
    });
    return () => {
      map.remove();
    };
  }, []);

  return <div ref={container} data-testid="city-map" className={MAP_BOX_CLASS} />;
}
