import { Outlet } from 'react-router-dom';
import { NavBar } from './NavBar';

/** The signed-in frame: navigation plus the screen. */
export function AppShell() {
  return (
    <div className="app-shell">
      <a href="#main-content" className="mate-skip-link">
        Skip to content
      </a>
      <NavBar />
      <main id="main-content" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
