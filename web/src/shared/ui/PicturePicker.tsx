import { useEffect, useRef, useState } from 'react';
import { PICTURE_ACCEPT, UPLOAD_ALLOWED_TYPES } from '../constants';
import { useFileUploads } from '../hooks/useFileUploads';
import { useMediaQuery } from '../hooks/useMediaQuery';
import { Avatar } from './Avatar';
import { buttonClass } from './Button';
import { Spinner } from './Spinner';

interface PicturePickerProps {
  id: string;
  label: string;
  /** The picture's link: '' for none, else an upload (`/uploads/...`) or an http(s) link. */
  value: string;
  onChange: (url: string) => void;
  /** Names the initials shown while there is no picture. */
  name: string;
  maxBytes: number;
  /** A person's picture is round, taken with the front camera; a group's is square, taken with the back one. */
  round?: boolean;
  /** The server's refusal of the saved picture, shown as a refused upload is. */
  error?: string;
  onUploadingChange?: (uploading: boolean) => void;
}

const actionClass = `${buttonClass('secondary', 'sm')} cursor-pointer`;

/**
 * A picture from the device, uploaded as a post's files are: chosen from the files or, on a
 * phone, taken with the camera. A refused file is named next to the picture; the rest of the
 * form is left as it is.
 */
export function PicturePicker({ id, label, value, onChange, name, maxBytes, round = false, error, onUploadingChange }: PicturePickerProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const phone = useMediaQuery('(pointer: coarse)');
  const files = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const picture = useFileUploads({ maxBytes, allowedTypes: UPLOAD_ALLOWED_TYPES, onRefused: setRefusal }, (uploaded) => {
    setRefusal(null);
    onChange(uploaded.file_url);
  });
  useEffect(() => onUploadingChange?.(picture.uploading), [picture.uploading, onUploadingChange]);
  const shownError = refusal ?? error;
  const preview = picture.pending[0]?.preview ?? value;

  const pick = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setRefusal(null);
    void picture.upload(file);
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="space-y-2">
      <p id={`${id}-label`} className="text-sm font-medium text-slate-700">
        {label}
      </p>
      <div className="flex items-center gap-4">
        <div className="relative shrink-0">
          {round ? (
            <Avatar name={name} image={preview || null} size={72} />
          ) : preview ? (
            <img src={preview} alt="" className="size-18 rounded-2xl bg-slate-100 object-cover ring-1 ring-slate-200" />
          ) : (
            <span aria-hidden="true" className="flex size-18 items-center justify-center rounded-2xl bg-slate-100 text-2xl text-slate-500 ring-1 ring-slate-200">
              🖼️
            </span>
          )}
          {picture.uploading && (
            <span className="absolute inset-0 flex items-center justify-center rounded-full bg-white/60 text-brand-700">
              <Spinner />
            </span>
          )}
        </div>
        <div className="flex min-w-0 flex-wrap gap-2">
          {phone && (
            <button type="button" disabled={picture.uploading} onClick={() => camera.current?.click()} className={actionClass}>
              Take a photo
            </button>
          )}
          <button type="button" disabled={picture.uploading} onClick={() => files.current?.click()} className={actionClass}>
            {phone ? 'Choose a photo' : 'Choose a picture'}
          </button>
          {value && !picture.uploading && (
            <button
              type="button"
              onClick={() => {
                setRefusal(null);
                onChange('');
              }}
              className={buttonClass('ghost', 'sm')}
            >
              Remove
            </button>
          )}
        </div>
      </div>
      {shownError && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {shownError}
        </p>
      )}
      <input ref={files} type="file" aria-label={`${label} from this device`} accept={PICTURE_ACCEPT} className="hidden" onChange={(event) => pick(event.target)} />
      {/* `capture` opens the phone's camera; the other input keeps the choice of a saved photo. */}
      <input ref={camera} type="file" aria-label={`${label} from the camera`} accept={PICTURE_ACCEPT} capture={round ? 'user' : 'environment'} className="hidden" onChange={(event) => pick(event.target)} />
    </div>
  );
}
