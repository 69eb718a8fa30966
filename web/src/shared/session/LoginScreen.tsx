import { Button } from '../ui/Button';
import { openLogin } from './login';

/** Stands in for a page that needs a signed-in user. */
export function LoginScreen({ message = 'Log in to see your profile, wallets and posts.' }: { message?: string }) {
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <div className="mx-auto mb-4 flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-2xl" aria-hidden="true">
          🔐
        </div>
        <h1 className="text-xl font-bold tracking-tight">You are not logged in</h1>
        <p className="mt-2 text-sm text-slate-500">{message}</p>
        <Button size="lg" className="mt-6 w-full" onClick={() => openLogin()}>
          Login
        </Button>
      </div>
    </div>
  );
}
