import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { useAdminAccess } from '../api/get-me';
import { adminPaths } from './admin-paths';

/**
 * The navigation bar's way into the admin area: rendered only once the server said this user is
 * an admin (GET /api/me), never while asking or for anyone else.
 */
export function AdminNavLink({ uid, onNavigate }: { uid: string; onNavigate?: (() => void) | undefined }) {
  if (useAdminAccess(uid) !== 'admin') return null;
  return (
    <Button component={Link} to={adminPaths.overview} variant="subtle" color="dark" onClick={onNavigate}>
      Admin
    </Button>
  );
}
