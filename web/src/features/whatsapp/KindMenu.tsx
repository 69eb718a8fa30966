import { useId, useState } from 'react';
import { iconButton } from '../chat/Composer';

export type ComposerKind = 'image' | 'document' | 'audio' | 'video' | 'location' | 'contacts' | 'buttons' | 'list' | 'template';

const KINDS: ReadonlyArray<readonly [ComposerKind, string, string]> = [
  ['image', '🖼️', 'Image'],
  ['document', '📄', 'Document'],
  ['audio', '🎵', 'Audio'],
  ['video', '🎬', 'Video'],
  ['location', '📍', 'Location'],
  ['contacts', '👤', 'Contact'],
  ['buttons', '🔘', 'Reply buttons'],
  ['list', '☰', 'List'],
  ['template', '📝', 'Template'],
];

/** The composer's "+": what else than text the agent can send. */
export function KindMenu({ onPick }: { onPick: (kind: ComposerKind) => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  return (
    <div
      className="relative"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(false);
      }}
    >
      <button
        type="button"
        aria-label="Send something else"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className={`${iconButton} text-xl leading-5`}
      >
        +
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label="Message kinds" className="absolute bottom-full left-0 z-10 mb-1 grid w-52 grid-cols-1 rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-200">
          {KINDS.map(([kind, icon, label], index) => (
            <button
              key={kind}
              type="button"
              role="menuitem"
              autoFocus={index === 0}
              onClick={() => {
                setOpen(false);
                onPick(kind);
              }}
              className="flex items-center gap-2 px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100"
            >
              <span aria-hidden="true">{icon}</span>
              {label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
