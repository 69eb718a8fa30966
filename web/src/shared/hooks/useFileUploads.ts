import { useState } from 'react';
import { checkFile, compressImage, uploadFile, type UploadedFile } from '../upload';
import { errorMessages } from '../errors';
import { useUi } from '../ui/uiContext';
import { useLatest } from './useLatest';

export interface PendingUpload {
  key: number;
  name: string;
  /** An object URL for previews; revoked once the upload ends. */
  preview: string;
  progress: number;
}

interface UploadRules {
  maxBytes: number;
  allowedTypes: readonly string[];
  /** Where a refused file's message goes (next to the control); without it, the error popup. */
  onRefused?: (message: string) => void;
}

let nextKey = 0;

/**
 * Checks, compresses (images) and uploads files, tracking each one's progress; a failure
 * shows the error popup (or goes to `onRefused`). `onUploaded` receives each file that made it, with its name.
 */
export function useFileUploads(rules: UploadRules, onUploaded: (uploaded: UploadedFile, name: string) => void) {
  const ui = useUi();
  const [pending, setPending] = useState<PendingUpload[]>([]);
  const latest = useLatest(onUploaded);

  const upload = async (original: File) => {
    const failure = checkFile(original, rules.maxBytes, rules.allowedTypes);
    if (failure) {
      if (rules.onRefused) rules.onRefused(failure.message);
      else ui.showError(failure.message, failure.title);
      return;
    }
    const key = nextKey++;
    const preview = URL.createObjectURL(original);
    setPending((list) => [...list, { key, name: original.name, preview, progress: 0 }]);
    try {
      const file = await compressImage(original);
      const uploaded = await uploadFile(file, (progress) =>
        setPending((list) => list.map((entry) => (entry.key === key ? { ...entry, progress } : entry))),
      );
      latest.current(uploaded, file.name);
    } catch (error) {
      if (rules.onRefused) rules.onRefused(errorMessages(error));
      else ui.showError(error);
    } finally {
      URL.revokeObjectURL(preview);
      setPending((list) => list.filter((entry) => entry.key !== key));
    }
  };

  return { pending, uploading: pending.length > 0, upload };
}

