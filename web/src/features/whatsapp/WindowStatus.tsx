/** The 24-hour window under the chat's header: how long free-form replies remain allowed, or that it closed. */
export function WindowStatus({ open, text }: { open: boolean; text: string }) {
  return (
    <p
      role="status"
      data-testid="wa-window"
      className={`border-b px-3 py-1.5 text-center text-xs font-medium ${open ? 'border-emerald-100 bg-emerald-50 text-emerald-800' : 'border-amber-100 bg-amber-50 text-amber-900'}`}
    >
      {open ? '⏱ ' : '🔒 '}
      {text}
    </p>
  );
}
