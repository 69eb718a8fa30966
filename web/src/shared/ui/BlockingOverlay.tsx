import { Loading } from './Loading';

/** Covers the whole page and swallows clicks while something must not be interrupted. */
export function BlockingOverlay({ title }: { title?: string }) {
  return (
    <div
      aria-busy="true"
      data-testid="blocking-overlay"
      className="fixed inset-0 z-[70] flex animate-fade-in items-center justify-center bg-white/70 backdrop-blur-[2px]"
    >
      <div className="rounded-2xl bg-white px-6 shadow-xl ring-1 ring-slate-200">
        <Loading title={title} />
      </div>
    </div>
  );
}
