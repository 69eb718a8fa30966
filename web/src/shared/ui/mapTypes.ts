// Apart from PlaceMap so that its lazily loaded Leaflet part can use them without importing it back.
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
