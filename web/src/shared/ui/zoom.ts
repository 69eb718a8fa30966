import { ZOOM_MAX, ZOOM_MIN } from '../constants';

/** The zoom after a step, kept within the spec's range. */
export function stepZoom(scale: number, step: number): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round((scale + step) * 100) / 100));
}
