import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { CAROUSEL_SLIDE_MS, ZOOM_DOUBLE_CLICK_STEP, ZOOM_MAX, ZOOM_MIN, ZOOM_WHEEL_STEP } from '../constants';
import type { ItemFile } from '../entities/item';
import { CloseIcon } from './icons';
import { swipeStep } from './carousel';
import { stepZoom } from './zoom';

/** The post's images; a click opens them full screen in a zoomable carousel. */
export function ImageViewer({ images }: { images: readonly ItemFile[] }) {
  const [open, setOpen] = useState<number | null>(null);
  if (images.length === 0) return null;
  return (
    <>
      <div className={`grid gap-2 ${images.length > 1 ? 'grid-cols-2' : ''}`}>
        {images.map((image, index) => (
          <button key={image.url} type="button" onClick={() => setOpen(index)} aria-label={`View image ${index + 1}`}>
            <img src={image.url} alt={image.title} className="max-h-96 w-full rounded-2xl bg-slate-100 object-cover" />
          </button>
        ))}
      </div>
      {open !== null && <Carousel images={images} start={open} onClose={() => setOpen(null)} />}
    </>
  );
}

export function Carousel({ images, start, onClose }: { images: readonly ItemFile[]; start: number; onClose: () => void }) {
  const [index, setIndex] = useState(start);
  const [scale, setScale] = useState(ZOOM_MIN);
  const go = (next: number) => {
    setIndex((next + images.length) % images.length);
    setScale(ZOOM_MIN);
  };
  const drag = useRef<{ x: number; y: number; time: number } | null>(null);
  // The strip follows the finger, then slides the rest of the way (or back) when let go.
  const [dragOffset, setDragOffset] = useState(0);
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    const from = drag.current;
    if (!from) return;
    drag.current = null;
    setDragOffset(0);
    const step = swipeStep({
      dx: event.clientX - from.x,
      dy: event.clientY - from.y,
      elapsedMs: event.timeStamp - from.time,
      width: event.currentTarget.clientWidth,
    });
    if (step !== 0) go(index + step);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      if (event.key === 'ArrowRight') go(index + 1);
      if (event.key === 'ArrowLeft') go(index - 1);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  return createPortal(
    <div role="dialog" aria-modal="true" aria-label="Images" className="fixed inset-0 z-50 overflow-hidden bg-black/95">
      <div
        className="flex h-full touch-pan-y ease-out"
        style={{
          transform: `translateX(calc(${dragOffset}px - ${index * 100}%))`,
          transition: dragOffset === 0 ? `transform ${CAROUSEL_SLIDE_MS}ms` : 'none',
        }}
        onPointerDown={(event) => {
          // A zoomed-in image is being looked at closely, not swiped away.
          if (images.length < 2 || scale > ZOOM_MIN) return;
          drag.current = { x: event.clientX, y: event.clientY, time: event.timeStamp };
        }}
        onPointerMove={(event) => {
          if (drag.current) setDragOffset(event.clientX - drag.current.x);
        }}
        onPointerUp={endDrag}
        onPointerCancel={() => {
          drag.current = null;
          setDragOffset(0);
        }}
      >
        {images.map((image, position) => (
          <div key={image.url} className="flex h-full w-full shrink-0 items-center justify-center overflow-hidden">
            <img
              src={image.url}
              alt={image.title}
              draggable={false}
              onWheel={(event) => setScale((current) => stepZoom(current, event.deltaY < 0 ? ZOOM_WHEEL_STEP : -ZOOM_WHEEL_STEP))}
              onDoubleClick={() => setScale((current) => (current >= ZOOM_MAX ? ZOOM_MIN : stepZoom(current, ZOOM_DOUBLE_CLICK_STEP)))}
              style={{ transform: `scale(${position === index ? scale : ZOOM_MIN})`, transition: 'transform 150ms' }}
              className="max-h-full max-w-full object-contain select-none"
            />
          </div>
        ))}
      </div>
      <button type="button" onClick={onClose} aria-label="Close" className="absolute top-4 right-4 rounded-full bg-white/10 p-2 text-white hover:bg-white/20">
        <CloseIcon />
      </button>
      {images.length > 1 && (
        <>
          <button type="button" onClick={() => go(index - 1)} aria-label="Previous image" className="absolute top-1/2 left-3 rounded-full bg-white/10 px-3 py-2 text-2xl text-white">
            ‹
          </button>
          <button type="button" onClick={() => go(index + 1)} aria-label="Next image" className="absolute top-1/2 right-3 rounded-full bg-white/10 px-3 py-2 text-2xl text-white">
            ›
          </button>
        </>
      )}
    </div>,
    document.body,
  );
}
