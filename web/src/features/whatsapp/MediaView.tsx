import { useState } from 'react';
import { mediaKind } from '../../shared/media';
import type { ItemFile } from '../../shared/entities/item';
import { Carousel } from '../../shared/ui/ImageViewer';
import type { WaMedia } from './whatsappApi';

const DOCUMENT_TYPE_NAMES: Readonly<Record<string, string>> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
};

/** "PDF", "Word", else the subtype the mime type names ("ZIP" for application/zip). */
export function documentTypeName(mimeType: string): string {
  return DOCUMENT_TYPE_NAMES[mimeType] ?? (mimeType.split('/')[1] ?? mimeType).toUpperCase();
}

/** The files a WhatsApp message carries: images open the viewer, sound and video play in place, the rest are cards. */
export function MediaView({ files }: { files: readonly WaMedia[] }) {
  const [viewing, setViewing] = useState<number | null>(null);
  const images = files.filter((file) => mediaKind(file) === 'image');
  return (
    <div className="mt-1 space-y-1">
      {files.map((file) => {
        const kind = mediaKind(file);
        if (kind === 'image') {
          const index = images.indexOf(file);
          return (
            <button key={file.url} type="button" onClick={() => setViewing(index)} aria-label={`View image ${file.title || index + 1}`} className="block">
              <img src={file.url} alt={file.title} className="max-h-48 rounded-lg bg-slate-100 object-cover" />
            </button>
          );
        }
        if (kind === 'audio') return <audio key={file.url} src={file.url} controls aria-label={file.title || 'Voice message'} className="w-60 max-w-full" />;
        if (kind === 'video') return <video key={file.url} src={file.url} controls aria-label={file.title || 'Video'} className="max-h-48 rounded-lg" />;
        return <DocumentCard key={file.url} file={file} />;
      })}
      {viewing !== null && <Carousel images={images.map(asItemFile)} start={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}

function DocumentCard({ file }: { file: WaMedia }) {
  const name = file.title || file.url.split('/').pop() || 'Document';
  return (
    <div data-testid="wa-document" className="flex items-center gap-3 rounded-lg bg-black/5 px-3 py-2">
      <span aria-hidden="true" className="text-2xl">
        📄
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold">{name}</p>
        <p className="text-xs text-slate-600">{documentTypeName(file.mime_type)}</p>
      </div>
      <a href={file.url} download={name} aria-label={`Download ${name}`} className="text-sm font-semibold underline underline-offset-2">
        Download
      </a>
    </div>
  );
}

function asItemFile(file: WaMedia): ItemFile {
  return { url: file.url, mime_type: file.mime_type, thumbnail: '', title: file.title, size: 0 };
}
