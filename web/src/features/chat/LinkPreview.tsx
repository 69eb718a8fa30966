import { useEffect, useState } from 'react';
import type { UrlPreview } from './chatApi';
import { urlPreview } from './urlPreview';

/** A card for the first link in a message, once the server has described it. */
export function LinkPreview({ url }: { url: string }) {
  const [preview, setPreview] = useState<UrlPreview | null>(null);
  useEffect(() => {
    let current = true;
    void urlPreview(url).then((loaded) => {
      if (current) setPreview(loaded);
    });
    return () => {
      current = false;
    };
  }, [url]);
  if (!preview || (!preview.title && !preview.image)) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className="mt-2 block overflow-hidden rounded-xl bg-white text-slate-800 ring-1 ring-slate-200 hover:bg-slate-50"
    >
      {preview.image && <img src={preview.image} alt="" className="h-28 w-full object-cover" />}
      <span className="block px-3 py-2">
        <span className="block truncate text-sm font-semibold">{preview.title}</span>
        {preview.description && <span className="line-clamp-2 text-xs text-slate-500">{preview.description}</span>}
      </span>
    </a>
  );
}
