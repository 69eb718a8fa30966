// A tiny typed event bus for signals that start outside React (the api client, the
// auth key store) and are handled inside it (the login dialog).

export interface AppEvents {
  /** The server said the request needs a signed-in user (401 / need_user). */
  need_user: void;
  /** Something in the app asks the user to log in. */
  do_login: void;
  /** The stored auth key was set or cleared. */
  auth_changed: void;
}

type Listener<T> = (payload: T) => void;

function createEventBus<Events extends object>() {
  const listeners = new Map<keyof Events, Set<Listener<never>>>();
  return {
    on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener as Listener<never>);
      return () => set.delete(listener as Listener<never>);
    },
    emit<K extends keyof Events>(name: K, ...payload: Events[K] extends void ? [] : [Events[K]]): void {
      for (const listener of [...(listeners.get(name) ?? [])]) {
        (listener as Listener<Events[K] | undefined>)(payload[0]);
      }
    },
  };
}

export const appEvents = createEventBus<AppEvents>();
