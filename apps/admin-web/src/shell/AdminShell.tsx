import { Button, Icon, Logo, type IconName } from '@mate/ui';
import { NavLink, Outlet } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext';
import { useMemberAppUrl } from '../browser/AdminBrowser';

interface AdminNavItem {
  label: string;
  to: string;
  icon: IconName;
  end?: boolean;
}

const NAV: AdminNavItem[] = [
  { label: 'Dashboard', to: '/admin', icon: 'home', end: true },
  { label: 'Reports', to: '/admin/reports', icon: 'flag' },
  { label: 'Photos', to: '/admin/photos', icon: 'camera' },
  { label: 'Analytics', to: '/admin/analytics', icon: 'chart' },
  { label: 'Audit', to: '/admin/audit', icon: 'shield' },
];

/** The signed-in frame: brand, the admin screens, the member app and sign-out. */
export function AdminShell() {
  const { user, logout } = useAuth();
  const memberApp = useMemberAppUrl('/dashboard');
  return (
    <div className="admin-shell">
      <a href="#main-content" className="admin-skip-link">
        Skip to content
      </a>
      <header className="admin-topbar">
        <div className="admin-topbar__inner">
          <span className="admin-topbar__brand">
            <Logo size={32} withWordmark />
            <span className="admin-topbar__tag">Admin</span>
          </span>
          <nav aria-label="Admin" className="admin-nav">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.end}
                    className={({ isActive }) => (isActive ? 'admin-nav__link admin-nav__link--active' : 'admin-nav__link')}
                  >
                    <Icon name={item.icon} size={18} />
                    <span>{item.label}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="admin-topbar__account">
            <a className="admin-topbar__member-link" href={memberApp}>
              Member app
            </a>
            {user?.email && <span className="admin-topbar__email">{user.email}</span>}
            <Button variant="secondary" onClick={() => void logout()} icon={<Icon name="logout" size={18} />}>
              Sign Out
            </Button>
          </div>
        </div>
      </header>
      <main id="main-content" className="admin-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
