import { Link } from 'react-router';
import { PATHS } from '../shared/constants';

export function Brand({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Link to={PATHS.home} onClick={onNavigate} className="flex items-center gap-2 rounded-lg text-lg font-extrabold tracking-tight">
      <span className="flex size-8 items-center justify-center rounded-xl bg-brand-600 text-base text-white shadow-sm">A</span>
      Agora
    </Link>
  );
}
