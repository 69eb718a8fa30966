// The landing page's texts.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

// --- Landing ---
export const HERO_TITLE = 'Find customers in your city';
export const HERO_SUBTITLE = 'Post, share and chat instantly';
/** The spec's "starter coins, and 1 coin a day from 2024-01-01", as the server grants them (agora/core/money.py). */
export const STARTER_COINS_TEXT = `New members get 🪙 ${server.STARTER_POINTS} in starter coins, plus ${server.DAILY_POINTS} coin for every day they open Agora (since ${new Date(
  `${server.DAILY_POINTS_SINCE}T00:00:00Z`,
).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}).`;
