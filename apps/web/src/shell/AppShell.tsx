import { Outlet } from 'react-router-dom';
import { MatchPopupProvider } from '../realtime/MatchPopup';
import { NavBar } from './NavBar';

/** The signed-in frame: navigation plus the screen, and the match popup that can open on any of them. */
export function AppShell() {
  return (
    <MatchPopupProvider>
      <div className="app-shell">
        <a href="#main-content" className="mate-skip-link">
          Skip to content
        </a>
        <NavBar />
        <main id="main-content" className="app-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </MatchPopupProvider>
  );
}
