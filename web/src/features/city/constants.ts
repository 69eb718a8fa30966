// The city picker's texts and map.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.

// --- Select city (spec sections 2 and 9) ---
export const SELECT_CITY_TITLE = 'Please Select your City';
export const CITY_SEARCH_PLACEHOLDER = 'Search for your city';
export const CITY_MAP_CENTER: readonly [number, number] = [52.370216, 4.895168];
export const CITY_MAP_ZOOM = 6;
