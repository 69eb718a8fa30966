import { useEffect, useState } from 'react';
import { Link, Outlet, useMatches } from 'react-router';
import { DESKTOP_MIN_WIDTH_PX, MENU_TRANSITION_MS, SIDE_PANEL_WIDTH_PX } from './constants';
import { PATHS } from '../shared/constants';
import { useMediaQuery } from '../shared/hooks/useMediaQuery';
import { Avatar } from '../shared/ui/Avatar';
import { buttonClass } from '../shared/ui/Button';
import { openLogin } from '../shared/session/login';
import { useCurrentUser } from '../shared/session/currentUser';
import { ChatProvider } from '../features/chat';
import { OfflineNotice, PushBridge } from '../features/push';
import { RewardReleasedNotices } from '../features/wallet';
import { MenuIcon } from '../shared/ui/icons';
import { Brand } from './Brand';
import { chatPlugins } from './chatPlugins';
import type { RouteHandle } from './routeHandle';
import { SideMenu } from './SideMenu';
import { useMenuSwipe } from './useMenuSwipe';
import { unseenLabel, useUnseenCount, useUnseenSignals } from './unseenSignals';

const DESKTOP_QUERY = `(min-width: ${DESKTOP_MIN_WIDTH_PX}px)`;
const transition = { transitionDuration: `${MENU_TRANSITION_MS}ms` };

/**
 * Header, side panel and page. On wide screens the panel is pinned beside the page;
 * otherwise (or when the route asks for it) it is a drawer over a dimming overlay.
 */
export function Shell() {
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const closedByDefault = useMatches().some((match) => (match.handle as RouteHandle | undefined)?.menuClosedByDefault);
  const pinned = isDesktop && !closedByDefault;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const open = pinned || drawerOpen;
  const closeDrawer = () => setDrawerOpen(false);

  useMenuSwipe(!pinned, drawerOpen, setDrawerOpen);
  useUnseenSignals();

  useEffect(() => {
    if (!drawerOpen || pinned) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [drawerOpen, pinned]);

  return (
    <ChatProvider kinds={chatPlugins}>
      <PushBridge />
      <RewardReleasedNotices />
      <div className="min-h-dvh">
        <OfflineNotice />
        <Header pinned={pinned} menuOpen={open} onToggle={() => setDrawerOpen((value) => !value)} />

        {!pinned && (
          <div
            data-testid="menu-overlay"
            aria-hidden="true"
            onClick={closeDrawer}
            style={transition}
            className={`fixed inset-0 z-40 bg-slate-900/40 transition-opacity ${drawerOpen ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
          />
        )}

        <aside
          id="side-menu"
          aria-label="Side menu"
          inert={!open}
          style={{ width: SIDE_PANEL_WIDTH_PX, ...transition }}
          className={`fixed bottom-0 left-0 overflow-y-auto border-r border-slate-200 bg-white transition-transform ${
            // Pinned, below the header (and the offline notice above it, when it shows).
            pinned ? 'top-[calc(4rem+var(--offline-notice-height,0px))] z-20' : 'top-0 z-50'
          } ${open ? 'translate-x-0' : '-translate-x-full'} ${drawerOpen && !pinned ? 'shadow-2xl' : ''}`}
        >
          {!pinned && (
            <div className="flex h-16 items-center border-b border-slate-100 px-5">
              <Brand onNavigate={closeDrawer} />
            </div>
          )}
          <SideMenu onNavigate={closeDrawer} />
        </aside>

        <main style={{ paddingLeft: pinned ? SIDE_PANEL_WIDTH_PX : 0 }}>
          <Outlet />
        </main>
      </div>
    </ChatProvider>
  );
}

/**
 * When the menu is pinned it already offers login and the profile, so the header does not.
 * While it is closed, the menu button carries the unseen count that Chats shows inside it.
 */
function Header({ pinned, menuOpen, onToggle }: { pinned: boolean; menuOpen: boolean; onToggle: () => void }) {
  const { user, status } = useCurrentUser();
  const unseen = useUnseenCount();
  return (
    // Sticks below the offline notice when it shows (features/push/OfflineNotice), not under it.
    <header className="sticky top-[var(--offline-notice-height,0px)] z-30 flex h-16 items-center gap-2 border-b border-slate-200/80 bg-white/85 px-3 backdrop-blur sm:px-5">
      {!pinned && (
        // The badge sits over the button, not in it: the button's name stays "Menu", the
        // count is its description.
        <div className="relative">
          <button
            type="button"
            onClick={onToggle}
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="side-menu"
            aria-describedby={unseen > 0 ? 'menu-unseen' : undefined}
            className="rounded-xl p-2 text-slate-700 hover:bg-slate-100"
          >
            <MenuIcon />
          </button>
          {unseen > 0 && (
            <>
              <span
                data-testid="menu-unseen-badge"
                aria-hidden="true"
                className="pointer-events-none absolute -right-0.5 -top-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold leading-none text-white ring-2 ring-white"
              >
                {unseenLabel(unseen)}
              </span>
              <span id="menu-unseen" className="sr-only">
                {`${unseen} unseen notifications`}
              </span>
            </>
          )}
        </div>
      )}
      <Brand />
      <div className="ml-auto">
        {pinned ? null : user ? (
          <Link to={PATHS.profile} className="block rounded-full">
            <Avatar name={user.name} image={user.image} size={36} />
            <span className="sr-only">Your profile</span>
          </Link>
        ) : (
          status !== 'idle' &&
          status !== 'loading' && (
            <button type="button" onClick={() => openLogin()} className={buttonClass('primary', 'sm')}>
              Login
            </button>
          )
        )}
      </div>
    </header>
  );
}
