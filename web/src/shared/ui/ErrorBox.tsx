/** The spec's red box for errors: one line per message. */
export function ErrorBox({ lines, className = '' }: { lines: readonly string[]; className?: string }) {
  return (
    <div role="alert" className={`space-y-1 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 ${className}`}>
      {lines.map((line, index) => (
        <p key={index} className="break-words">
          {line}
        </p>
      ))}
    </div>
  );
}
