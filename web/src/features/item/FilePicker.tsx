import { useEffect, useRef } from 'react';
import { POST_MAX_FILE_BYTES, POST_MAX_FILES } from './constants';
import { UPLOAD_ALLOWED_TYPES } from '../../shared/constants';
import { useFileUploads } from '../../shared/hooks/useFileUploads';
import { CloseIcon } from '../../shared/ui/icons';
import { itemFileFrom, type ItemFile } from '../../shared/entities/item';

interface FilePickerProps {
  files: ItemFile[];
  onChange: (update: (files: ItemFile[]) => ItemFile[]) => void;
  /** Tells the form whether an upload runs, so that it can hold the submit. */
  onUploadingChange: (uploading: boolean) => void;
}

/** Picks, checks, compresses and uploads the post's images, with previews and progress. */
export function FilePicker({ files, onChange, onUploadingChange }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const { pending, uploading, upload } = useFileUploads(
    { maxBytes: POST_MAX_FILE_BYTES, allowedTypes: UPLOAD_ALLOWED_TYPES },
    (uploaded, title) => onChange((current) => [...current, itemFileFrom(uploaded, title)]),
  );
  const room = POST_MAX_FILES - files.length - pending.length;
  useEffect(() => onUploadingChange(uploading), [uploading, onUploadingChange]);

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-3">
        {files.map((file) => (
          <div key={file.url} className="relative">
            <img src={file.thumbnail || file.url} alt={file.title} className="size-24 rounded-xl bg-slate-100 object-cover ring-1 ring-slate-200" />
            <button
              type="button"
              aria-label={`Remove ${file.title}`}
              onClick={() => onChange((current) => current.filter((entry) => entry.url !== file.url))}
              className="absolute -top-2 -right-2 rounded-full bg-slate-900 p-1 text-white shadow"
            >
              <CloseIcon className="size-3.5" />
            </button>
          </div>
        ))}
        {pending.map((entry) => (
          <div key={entry.key} className="relative size-24 overflow-hidden rounded-xl ring-1 ring-slate-200">
            <img src={entry.preview} alt="" className="size-full object-cover opacity-50" />
            <progress aria-label="Upload progress" max={1} value={entry.progress} className="absolute inset-x-2 bottom-2 h-1.5 w-[calc(100%-1rem)]" />
          </div>
        ))}
        {room > 0 && (
          <button
            type="button"
            onClick={() => input.current?.click()}
            className="flex size-24 flex-col items-center justify-center rounded-xl border-2 border-dashed border-slate-300 text-sm text-slate-500 hover:bg-slate-50"
          >
            <span className="text-2xl leading-none">+</span>
            Add photo
          </button>
        )}
      </div>
      <input
        ref={input}
        type="file"
        aria-label="Files"
        accept={UPLOAD_ALLOWED_TYPES.join(',')}
        multiple
        className="hidden"
        onChange={(event) => {
          const chosen = [...(event.target.files ?? [])].slice(0, room);
          event.target.value = '';
          chosen.forEach((file) => void upload(file));
        }}
      />
    </div>
  );
}
