/**
 * What a test file hands the app in place of the realtime connection and of leaving the app,
 * in the files that share one module graph (vite.config.ts). Those files cannot each `vi.mock`
 * the modules: a module another file imported first keeps the module it was given then. So
 * src/test/sharedGraph.ts mocks them once for all, and the mocks ask here what the running file
 * serves, the real module's behaviour when it serves nothing.
 */
export interface StandIns {
  /** The socket `getSocket` gives: a fake of the parts the code under test uses. */
  socket: object;
  /** Called instead of leaving the app for `url`. */
  leaveAppFor: (url: string) => void;
}

// On globalThis, not in this module: files reset the module graph (`vi.resetModules()`), after
// which they would import another copy of this module than the one the mocks read.
const SERVED = Symbol.for('agora.test.standIns');
type Holder = typeof globalThis & { [SERVED]?: Partial<StandIns> };

/** Until the next test file, the app uses these. */
export function serve(standIns: Partial<StandIns>): void {
  (globalThis as Holder)[SERVED] = standIns;
}

export function served(): Partial<StandIns> {
  return (globalThis as Holder)[SERVED] ?? {};
}
