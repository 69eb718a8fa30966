import { useState } from 'react';
import { initials, seedColor } from '../color';

interface AvatarProps {
  name: string;
  image?: string | null;
  /** Pixels. */
  size?: number;
}

/** The user's picture, or their initials on a colour derived from the name. */
export function Avatar({ name, image, size = 40 }: AvatarProps) {
  const [failedImage, setFailedImage] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (image && image !== failedImage) {
    return (
      <img
        src={image}
        alt=""
        style={style}
        className="shrink-0 rounded-full bg-slate-200 object-cover"
        onError={() => setFailedImage(image)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ ...style, backgroundColor: seedColor(name) }}
      className="inline-flex shrink-0 items-center justify-center rounded-full font-semibold text-white select-none"
    >
      {initials(name)}
    </span>
  );
}
