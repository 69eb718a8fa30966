import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { userProfilePath } from '../constants';

/** A person's name leading to their public profile (/u/:userId: their reviews and what they paid). */
export function ProfileLink({ userId, children, className = '' }: { userId: string; children: ReactNode; className?: string }) {
  return (
    <Link to={userProfilePath(userId)} data-profile-link="" className={`font-semibold text-brand-700 hover:underline ${className}`}>
      {children}
    </Link>
  );
}
