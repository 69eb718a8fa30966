import type { ReactNode } from 'react';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/EmptyState';
import { Loading } from '../ui/Loading';
import type { User } from '../entities/user';
import { LoginScreen } from './LoginScreen';
import { refreshCurrentUser, useCurrentUser } from './currentUser';

/** Renders its children with the signed-in user, or the login screen (with `loginMessage`) for visitors. */
export function RequireUser({ children, loginMessage }: { children: (user: User) => ReactNode; loginMessage?: string }) {
  const { status, user } = useCurrentUser();
  if (user) return children(user);
  if (status === 'error') {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <EmptyState icon="⚠️" title="Could not load your account" description="Check your connection and try again.">
          <Button variant="secondary" onClick={() => void refreshCurrentUser().catch(() => undefined)}>
            Try again
          </Button>
        </EmptyState>
      </div>
    );
  }
  if (status === 'ready') return <LoginScreen message={loginMessage} />;
  return <Loading />;
}
