import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/use-auth';

/**
 * Signed-out visitors (anonymous sessions included) go to /signin, which sends them back here
 * afterwards. Handled here rather than in the API client, so public pages never redirect.
 */
export function ProtectedRoute() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <PageLoader label="Checking your session..." />;
  if (auth.status === 'signed-out') {
    return (
      <Navigate to={paths.signIn} replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />
    );
  }
  return <Outlet />;
}
