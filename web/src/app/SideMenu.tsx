import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { INSTALL_APP } from './constants';
import { NEW_GROUP_TEXT, PATHS } from '../shared/constants';
import { Avatar } from '../shared/ui/Avatar';
import { openLogin } from '../shared/session/login';
import { updateCurrentUser, useCurrentUser } from '../shared/session/currentUser';
import { feedPath, rememberedGroupId } from '../shared/rememberedGroup';
import { AboutIcon, ChatIcon, FeedIcon, InstallIcon, LocationIcon, LoginIcon, NewGroupIcon } from '../shared/ui/icons';
import { promptInstall, usePushState } from '../features/push';
import { useUnseenCount } from './unseenSignals';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `flex h-11 items-center gap-3 rounded-xl px-3 text-[15px] font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'
  }`;

interface MenuLinkProps {
  to: string;
  icon: ReactNode;
  children: ReactNode;
  onClick: () => void;
  /** False for an item that only borrows another item's page, so that one item is lit at a time. */
  highlights?: boolean;
}

function MenuLink({ to, icon, children, onClick, highlights = true }: MenuLinkProps) {
  const content = (
    <>
      {icon}
      {children}
    </>
  );
  return (
    <li>
      {highlights ? (
        <NavLink to={to} onClick={onClick} className={itemClass} end>
          {content}
        </NavLink>
      ) : (
        <Link to={to} onClick={onClick} className={itemClass({ isActive: false })}>
          {content}
        </Link>
      )}
    </li>
  );
}

/** The side panel's items. `onNavigate` lets the mobile drawer close after a choice. */
export function SideMenu({ onNavigate }: { onNavigate: () => void }) {
  const { user } = useCurrentUser();
  const unseen = useUnseenCount();
  const { installable } = usePushState();

  const openChats = () => {
    // Opening the chat list counts as having seen the notifications.
    updateCurrentUser((current) => ({ ...current, data: { ...current.data, notifications_unseen_count: 0 } }));
    onNavigate();
  };

  return (
    <nav aria-label="Main menu" className="flex flex-col gap-4 p-3">
      {user ? (
        <NavLink
          to={PATHS.profile}
          onClick={onNavigate}
          className={({ isActive }) =>
            `flex items-center gap-3 rounded-2xl p-3 transition-colors ${isActive ? 'bg-brand-50' : 'bg-slate-50 hover:bg-slate-100'}`
          }
        >
          <Avatar name={user.name} image={user.image} size={40} />
          <span className="min-w-0">
            <span className="block truncate font-semibold text-slate-900">{user.name}</span>
            <span className="block text-xs text-slate-500">View profile</span>
          </span>
        </NavLink>
      ) : (
        <button
          type="button"
          onClick={() => {
            onNavigate();
            openLogin();
          }}
          className="flex h-11 items-center gap-3 rounded-xl bg-brand-600 px-3 text-[15px] font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          <LoginIcon />
          Login
        </button>
      )}

      <ul className="space-y-1">
        {/* With no city chosen yet, Feed leads to Change Location's page: that item is the lit one. */}
        <MenuLink to={feedPath()} icon={<FeedIcon />} onClick={onNavigate} highlights={rememberedGroupId() !== null}>
          Feed
        </MenuLink>
        <MenuLink to={PATHS.chats} icon={<ChatIcon />} onClick={openChats}>
          Chats
          {unseen > 0 && (
            <span className="ml-auto size-2.5 rounded-full bg-red-500" role="img" aria-label={`${unseen} unseen notifications`} />
          )}
        </MenuLink>
        <MenuLink to={PATHS.selectCity} icon={<LocationIcon />} onClick={onNavigate}>
          Change Location
        </MenuLink>
        <MenuLink to={PATHS.createGroup} icon={<NewGroupIcon />} onClick={onNavigate}>
          {NEW_GROUP_TEXT}
        </MenuLink>
        <MenuLink to={PATHS.landing} icon={<AboutIcon />} onClick={onNavigate}>
          About
        </MenuLink>
        {installable && (
          <li>
            <button
              type="button"
              onClick={() => {
                onNavigate();
                void promptInstall();
              }}
              className={`w-full ${itemClass({ isActive: false })}`}
            >
              <InstallIcon />
              {INSTALL_APP}
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}
