/** The map's box, also held by its placeholder while Leaflet loads, so nothing jumps. */
export const MAP_BOX_CLASS = 'z-0 h-72 w-full rounded-2xl bg-slate-200 ring-1 ring-slate-200 sm:h-96';
