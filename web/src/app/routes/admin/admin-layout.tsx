import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/config/paths';
import { useAdminAccess } from '@/features/admin/api/get-me';
import { AdminShell } from '@/features/admin/components/admin-shell';
import { NotAllowed } from '@/features/admin/components/not-allowed';
import { useAuth } from '@/lib/auth/use-auth';

/** The admin area for admins only: the server decides (GET /api/me), signed-out visitors never get here. */
export function AdminLayoutRoute() {
  const auth = useAuth();
  const access = useAdminAccess(auth.user?.uid);
  const queryClient = useQueryClient();

  if (access === 'checking') return <PageLoader label="Checking your access..." />;
  if (access === 'not-admin') return <NotAllowed homePath={paths.home} />;
  if (access === 'failed') {
    return (
      <Container size="sm" py={80}>
        <Stack align="center" ta="center">
          <Title order={1}>Something went wrong</Title>
          <Text c="dimmed">Could not check whether you may use the admin area.</Text>
          <Button onClick={() => void queryClient.invalidateQueries({ queryKey: ['me'] })}>Try Again</Button>
        </Stack>
      </Container>
    );
  }
  return (
    <AdminShell>
      <title>Admin · QR Shirts for Charity</title>
      <Outlet />
    </AdminShell>
  );
}
