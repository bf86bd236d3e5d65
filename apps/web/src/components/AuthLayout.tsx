import { Logo } from '@mate/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './auth-pages.css';

/** Public pages: the brand on top, one glass card in the middle of the gradient. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="auth-layout">
      <main id="main-content" className={wide ? 'auth-layout__main auth-layout__main--wide' : 'auth-layout__main'}>
        <Link to="/" className="auth-layout__brand" aria-label="Mate home">
          <Logo size={40} withWordmark />
        </Link>
        {children}
      </main>
      <footer className="auth-layout__footer">
        <p>Mate · AI-Driven Dating Platform · For adults 18+</p>
      </footer>
    </div>
  );
}
