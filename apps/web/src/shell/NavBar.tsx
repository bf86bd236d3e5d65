import { Avatar, Icon, Logo, useBodyScrollLock } from '@mate/ui';
import { useCallback, useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext';
import { UnreadBadge } from '../chat/UnreadBadge';
import { unreadBadgeText } from '../chat/unread';
import { useUnreadCount } from '../chat/useChat';
import { usePhotoUrl } from '../profile/usePhotos';
import { LARGE_BREAKPOINT_QUERY, NAV_GROUPS } from './nav-items';

const NAV_ID = 'main-navigation';

/**
 * The navigation of spec 000 §2. From the large breakpoint up it is a sidebar; below it a menu
 * opened by the toggle and closed by Escape, the backdrop, or choosing an item, with the page
 * behind it locked from scrolling.
 */
export function NavBar() {
  const { user, profile, isAdmin, logout } = useAuth();
  const photoUrl = usePhotoUrl();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount();
  const close = useCallback(() => setOpen(false), []);

  useBodyScrollLock(open);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  // Back/forward navigation closes the menu too.
  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  // Growing past the breakpoint turns the menu into the sidebar: nothing left to close.
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(LARGE_BREAKPOINT_QUERY);
    const onChange = () => {
      if (query.matches) setOpen(false);
    };
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);

  // The signed-out guard then takes the member to the sign-in screen at /.
  const onLogout = () => {
    setOpen(false);
    void logout();
  };

  const displayName = profile?.name || user?.name || 'Friend';
  const showContinueOnboarding = !profile?.onboardingCompleted;

  return (
    <>
      <header className="app-topbar">
        <Link to="/dashboard" className="app-topbar__brand" aria-label="Mate dashboard">
          <Logo size={34} withWordmark />
        </Link>
        <button
          type="button"
          className="app-topbar__toggle"
          aria-expanded={open}
          aria-controls={NAV_ID}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          <Icon name={open ? 'close' : 'menu'} size={24} />
          {/* The menu is closed on small screens: the unread count shows on its button too. */}
          {!open && unread > 0 && (
            <span className="app-topbar__badge" aria-hidden="true">
              {unreadBadgeText(unread)}
            </span>
          )}
        </button>
      </header>

      <div
        className={open ? 'app-nav-backdrop app-nav-backdrop--visible' : 'app-nav-backdrop'}
        data-testid="nav-backdrop"
        aria-hidden="true"
        onClick={close}
      />

      <nav id={NAV_ID} aria-label="Main" className={open ? 'app-nav app-nav--open' : 'app-nav'}>
        <Link to="/dashboard" className="app-nav__brand" aria-label="Mate dashboard" onClick={close}>
          <Logo size={38} withWordmark />
        </Link>

        <div className="app-nav__user">
          <Avatar name={displayName} src={photoUrl(profile?.profilePicture, 'thumb')} size="md" />
          <div className="app-nav__user-text">
            <span className="app-nav__user-name">{displayName}</span>
            {user?.email && <span className="app-nav__user-email">{user.email}</span>}
          </div>
        </div>

        {showContinueOnboarding && (
          <Link to="/onboarding" className="app-nav__onboarding" onClick={close}>
            <Icon name="sparkles" size={18} />
            <span>Continue Onboarding</span>
            <Icon name="arrow-right" size={16} className="app-nav__onboarding-arrow" />
          </Link>
        )}

        <div className="app-nav__groups">
          {NAV_GROUPS.map((group) => {
            const items = group.items.filter((item) => !item.adminOnly || isAdmin);
            if (items.length === 0) return null;
            return (
              <div key={group.heading} className="app-nav__group">
                <p className="app-nav__heading" id={`nav-${group.heading}`}>
                  {group.heading}
                </p>
                <ul aria-labelledby={`nav-${group.heading}`}>
                  {items.map((item) => (
                    <li key={item.to}>
                      <NavLink
                        to={item.to}
                        onClick={close}
                        className={({ isActive }) => (isActive ? 'app-nav__link app-nav__link--active' : 'app-nav__link')}
                      >
                        <Icon name={item.icon} size={20} />
                        <span>{item.label}</span>
                        {item.badge === 'unread' && <UnreadBadge count={unread} className="app-nav__badge" />}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </div>

        <button type="button" className="app-nav__link app-nav__logout" onClick={onLogout}>
          <Icon name="logout" size={20} />
          <span>Logout</span>
        </button>
      </nav>
    </>
  );
}
