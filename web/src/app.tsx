import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ViewerDocument } from './api/generated';
import { useApi } from './api/use-api';
import {
  beginSignIn,
  completeSignIn,
  isSignedIn,
  onSessionChange,
  resume,
  SignInError,
  signOut,
} from './auth/oauth-session';
import { AdminPage } from './pages/admin-page';
import { TimerPage } from './pages/timer-page';
import { WeekPage } from './pages/week-page';
import { personName, text } from './text';
import { ErrorNotice, Loading } from './ui';

// The chart library comes with the dashboard, not with the first page.
const DashboardPage = lazy(() =>
  import('./pages/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);

const PAGES = ['timer', 'week', 'dashboard', 'admin'] as const;
type Page = (typeof PAGES)[number];

function pageOf(hash: string): Page {
  const name = hash.replace(/^#\/?/, '').split('?')[0]!;
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : 'timer';
}

export function App() {
  const signedIn = useSyncExternalStore(onSessionChange, isSignedIn);
  const [signInProblem, setSignInProblem] = useState<string>();
  const [completing, setCompleting] = useState(true);

  useEffect(() => {
    completeSignIn()
      .catch((error: unknown) =>
        setSignInProblem(
          error instanceof SignInError && error.message === 'state'
            ? text.auth.stateMismatch
            : text.auth.failed(error instanceof Error ? error.message : String(error)),
        ),
      )
      .finally(() => {
        resume();
        setCompleting(false);
      });
  }, []);

  if (completing) return <Loading />;
  if (!signedIn) return <SignInScreen problem={signInProblem} />;
  return <SignedIn />;
}

function SignInScreen({ problem }: { problem: string | undefined }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(problem);
  return (
    <main className="sign-in">
      <h1>{text.auth.title}</h1>
      <p>{text.auth.intro}</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          beginSignIn().catch((e: unknown) => {
            setBusy(false);
            setError(
              e instanceof SignInError && e.message === 'insecure' ? text.auth.insecure : String(e),
            );
          });
        }}
      >
        {busy ? text.auth.signingIn : text.auth.signIn}
      </button>
    </main>
  );
}

function SignedIn() {
  const [page, setPage] = useState(() => pageOf(location.hash));
  useEffect(() => {
    const onHash = () => setPage(pageOf(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const viewer = useApi(ViewerDocument, {});
  // A new page is announced as a page is: its title, and the focus on its main region.
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${text.nav[page]} – ${text.appName}`;
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [page]);

  if (viewer.error) return <ErrorNotice error={viewer.error} />;
  if (!viewer.data) return <Loading />;
  const me = viewer.data.viewer;
  const manages = me.staff.type !== 'STAFF';
  const shown = PAGES.filter((p) => p !== 'admin' || manages);

  return (
    <>
      <header className="top">
        <span className="brand">{text.appName}</span>
        <nav aria-label={text.nav.label}>
          <ul>
            {shown.map((p) => (
              <li key={p}>
                <a href={`#/${p}`} aria-current={p === page ? 'page' : undefined}>
                  {text.nav[p]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="who">{text.nav.signedInAs(personName(me.staff))}</p>
        <button type="button" onClick={() => void signOut()}>
          {text.nav.signOut}
        </button>
      </header>
      <main ref={main} tabIndex={-1}>
        {page === 'timer' && <TimerPage />}
        {page === 'week' && <WeekPage viewer={me} />}
        {page === 'dashboard' && (
          <Suspense fallback={<Loading />}>
            <DashboardPage viewer={me} />
          </Suspense>
        )}
        {page === 'admin' && <AdminPage viewer={me} />}
      </main>
    </>
  );
}
