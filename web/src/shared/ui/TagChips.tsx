/** Toggle chips, shared by the feed filter and the post form. */
export function TagChips({ tags, selected, onChange }: { tags: readonly string[]; selected: readonly string[]; onChange: (tags: string[]) => void }) {
  return (
    <div role="group" aria-label="Tags" className="flex flex-wrap gap-2">
      {tags.map((tag) => {
        const on = selected.includes(tag);
        return (
          <button
            key={tag}
            type="button"
            aria-pressed={on}
            onClick={() => onChange(on ? selected.filter((entry) => entry !== tag) : [...selected, tag])}
            className={`rounded-full px-3 py-1 text-sm font-medium ring-1 transition-colors ring-inset ${
              on ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
            }`}
          >
            #{tag}
          </button>
        );
      })}
    </div>
  );
}
