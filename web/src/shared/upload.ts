import { api } from './api';
import type { ApiError, ErrorsValue } from './errors';
import {
  FILE_TOO_LARGE_TITLE,
  IMAGE_MAX_WIDTH_PX,
  IMAGE_QUALITY,
  INVALID_FILE_TYPE_TITLE,
  MIME_EXTENSIONS,
  MISMATCHING_MIME_TEXT,
  PNG_TO_JPEG_ABOVE_BYTES,
  UPLOAD_ALLOWED_TYPES,
  fileTooLargeText,
  invalidFileTypeText,
} from './constants';

export interface FileCheckFailure {
  title: string;
  message: string;
}

/** 'docx' for a Word document's long mime type; the subtype for a type without a known extension. */
export function fileTypeName(mimeType: string): string {
  return MIME_EXTENSIONS[mimeType] ?? mimeType.replace(/^.*\//, '');
}

/** The client-side checks before an upload; null when the file may go. */
export function checkFile(
  file: Pick<File, 'type' | 'size'>,
  maxBytes: number,
  allowedTypes: readonly string[] = UPLOAD_ALLOWED_TYPES,
): FileCheckFailure | null {
  if (!allowedTypes.includes(file.type)) {
    return { title: INVALID_FILE_TYPE_TITLE, message: invalidFileTypeText(allowedTypes.map(fileTypeName)) };
  }
  if (file.size > maxBytes) return { title: FILE_TOO_LARGE_TITLE, message: fileTooLargeText(maxBytes) };
  return null;
}

/** The type a compressed image is saved as: big pngs become jpeg, the rest keep their type. */
export function compressedType(file: Pick<File, 'type' | 'size'>): string {
  return file.type === 'image/png' && file.size > PNG_TO_JPEG_ABOVE_BYTES ? 'image/jpeg' : file.type;
}

/** Scales the image down to the maximum width; the original when anything goes wrong. */
export async function compressImage(file: File): Promise<File> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, IMAGE_MAX_WIDTH_PX / bitmap.width);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const type = compressedType(file);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, IMAGE_QUALITY));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], file.name, { type });
  } catch {
    return file;
  }
}

interface UploadUrlReply {
  file_mime_type: string;
  file_url: string;
  title: string;
  upload_data: { url: string; method: 'PUT'; fields: Record<string, string>; headers: Record<string, string> };
}

export interface UploadedFile {
  file_url: string;
  file_mime_type: string;
  thumbnail: string;
  size: number;
}

/** The server's refusal of the bytes (`{errors}`: not a picture, too large) as the API client rejects, so it is shown as sent. */
function refusal(status: number, body: string): ApiError | Error {
  try {
    const parsed = JSON.parse(body) as { errors?: ErrorsValue };
    if (parsed.errors) return { status, errors: parsed.errors };
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return new Error(`Upload failed with status ${status}`);
}

function put(url: string, headers: Record<string, string>, body: Blob, onProgress: (fraction: number) => void) {
  // XMLHttpRequest rather than fetch: only it reports upload progress.
  return new Promise<UploadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as UploadedFile);
      else reject(refusal(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new Error('Upload failed'));
    xhr.send(body);
  });
}

/** Asks for an upload slot, then sends the bytes there. */
export async function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> {
  const slot = await api.post<UploadUrlReply>('/get_upload_url', {
    file_mime_type: file.type,
    file_name_hint: file.name,
    file_size: file.size,
  });
  if (slot.file_mime_type !== file.type) throw new Error(MISMATCHING_MIME_TEXT);
  return put(slot.upload_data.url, slot.upload_data.headers, file, onProgress);
}
