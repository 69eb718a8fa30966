import { LOADING_TEXT } from '../constants';
import { Spinner } from './Spinner';

interface LoadingProps {
  title?: string;
  /** CSS height of the block, so a loading section can hold the space of its content. */
  height?: number | string;
}

export function Loading({ title = LOADING_TEXT, height }: LoadingProps) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-10 text-slate-500" style={{ height }}>
      <Spinner className="size-5 text-brand-600" />
      <span className="text-sm font-medium">{title}</span>
    </div>
  );
}
