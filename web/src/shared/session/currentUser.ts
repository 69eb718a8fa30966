import { useEffect, useSyncExternalStore } from 'react';
import { api } from '../api';
import { appEvents } from '../events';
import type { GuestUser, MeResponse, User } from '../entities/user';

export interface CurrentUserState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  user: User | null;
  guestUser: GuestUser | null;
}

let state: CurrentUserState = { status: 'idle', user: null, guestUser: null };
let inFlight: Promise<MeResponse> | null = null;
/** Bumped by every refresh so that the answer to an older request is dropped. */
let generation = 0;
const listeners = new Set<() => void>();

function setState(next: CurrentUserState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

/** GET /user/me once, shared by every caller until refreshCurrentUser(). */
export function loadCurrentUser(): Promise<MeResponse> {
  if (inFlight) return inFlight;
  const mine = ++generation;
  if (state.status !== 'ready') setState({ ...state, status: 'loading' });
  const request = api.get<MeResponse>('/user/me').then((reply) => {
    if (mine === generation) setState({ status: 'ready', user: reply.user, guestUser: reply.guest_user });
    return reply;
  });
  // A malformed reply fails inside the handler above, so the error state is set here.
  request.catch(() => {
    if (mine !== generation) return;
    inFlight = null;
    setState({ ...state, status: 'error' });
  });
  inFlight = request;
  return inFlight;
}

export function refreshCurrentUser(): Promise<MeResponse> {
  inFlight = null;
  return loadCurrentUser();
}

/** Applies a change the server already confirmed (a profile update) without a round trip. */
export function updateCurrentUser(change: (user: User) => User): void {
  if (state.user) setState({ ...state, user: change(state.user) });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCurrentUser(): CurrentUserState {
  const snapshot = useSyncExternalStore(subscribe, () => state);
  useEffect(() => {
    if (snapshot.status === 'idle') loadCurrentUser().catch(() => undefined);
  }, [snapshot.status]);
  return snapshot;
}

/** Another account (or none) signs the requests now: what was loaded belongs to the last one.
 * Screens that show the user load it again as soon as they see the idle state. */
function forgetCurrentUser(): void {
  inFlight = null;
  generation += 1;
  setState({ status: 'idle', user: null, guestUser: null });
}

appEvents.on('auth_changed', forgetCurrentUser);
