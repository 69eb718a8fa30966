// The app shell's layout and texts.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.

// --- Layout (spec section 9) ---
export const DESKTOP_MIN_WIDTH_PX = 993;
export const SIDE_PANEL_WIDTH_PX = 250;
export const MENU_TRANSITION_MS = 200;

export const INSTALL_APP = 'Install app';
