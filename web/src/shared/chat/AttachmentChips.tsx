import type { ReactNode } from 'react';
import type { PendingUpload } from '../hooks/useFileUploads';
import { CloseIcon } from '../ui/icons';

export interface AttachedChip {
  key: string;
  /** What the chip shows. */
  label: ReactNode;
  /** The file's title, naming it in the remove button's label. */
  title: string;
  onRemove: () => void;
  /** Room for a longer label (a WhatsApp media kind before the title). */
  wide?: boolean;
}

/** A composer's attachments: the attached files, each removable, then the uploads still running. */
export function AttachmentChips({ attached, pending }: { attached: AttachedChip[]; pending: PendingUpload[] }) {
  if (attached.length === 0 && pending.length === 0) return null;
  return (
    <ul aria-label="Attachments" className="flex flex-wrap gap-2 px-3 pt-2">
      {attached.map((chip) => (
        <li key={chip.key} className={`flex ${chip.wide ? 'max-w-60' : 'max-w-40'} items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-xs`}>
          <span className="truncate">{chip.label}</span>
          <button type="button" aria-label={`Remove ${chip.title}`} onClick={chip.onRemove} className="rounded-full p-0.5 hover:bg-slate-200">
            <CloseIcon className="size-3.5" />
          </button>
        </li>
      ))}
      {pending.map((entry) => (
        <li key={entry.key} className="flex max-w-40 items-center gap-2 rounded-full bg-slate-100 px-3 py-1 text-xs text-slate-500">
          <span className="truncate">{entry.name}</span>
          <progress aria-label="Upload progress" max={1} value={entry.progress} className="h-1.5 w-10" />
        </li>
      ))}
    </ul>
  );
}
