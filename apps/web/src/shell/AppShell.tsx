import { Outlet } from 'react-router-dom';
import { NotificationPrompt } from '../push/NotificationPrompt';
import { MatchPopupProvider } from '../realtime/MatchPopup';
import { ActiveCallBar } from '../screens/call/ActiveCallBar';
import { IncomingCallOverlay } from '../screens/call/IncomingCallOverlay';
import { NavBar } from './NavBar';
import './shell.css';

/**
 * The signed-in frame: navigation plus the screen, and what can open over any of them: the match
 * popup, the incoming call overlay, the notification prompt, and the bar of a live call the member has left the screen of.
 */
export function AppShell() {
  return (
    <MatchPopupProvider>
      <div className="app-shell">
        <a href="#main-content" className="mate-skip-link">
          Skip to content
        </a>
        <NavBar />
        <main id="main-content" className="app-main" tabIndex={-1}>
          <ActiveCallBar />
          {/* In the main flow: on Discover it takes its own place above the screen (NotificationPrompt). */}
          <NotificationPrompt />
          <Outlet />
        </main>
      </div>
      <IncomingCallOverlay />
    </MatchPopupProvider>
  );
}
