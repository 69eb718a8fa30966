import { PopupMenu } from '../../shared/ui/PopupMenu';
import { iconButton } from '../../shared/chat/composerStyles';

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
  return (
    <PopupMenu
      label="Send something else"
      trigger="+"
      triggerClassName={`${iconButton} text-xl leading-5`}
      menuLabel="Message kinds"
      menuClassName="absolute bottom-full left-0 z-10 mb-1 grid w-52 grid-cols-1 rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-200"
      itemClassName="flex items-center gap-2 px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100"
      items={KINDS.map(([kind, icon, label]) => ({
        key: kind,
        content: (
          <>
            <span aria-hidden="true">{icon}</span>
            {label}
          </>
        ),
        onSelect: () => onPick(kind),
      }))}
    />
  );
}
