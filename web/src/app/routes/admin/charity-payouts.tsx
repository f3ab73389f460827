import { Button } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAdminCharity } from '@/features/admin/api/get-charity';
import { useCharityPayouts } from '@/features/admin/api/get-charity-payouts';
import { adminPaths } from '@/features/admin/components/admin-paths';
import { CharityPayoutsPanel } from '@/features/admin/components/charity-payouts-panel';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';

/**
 * /admin/charities/:id/payouts: where an admin connects a charity to Stripe, and where Stripe's
 * onboarding sends them back (with `?expired=1` when its link was used or had expired).
 */
export function AdminCharityPayoutsRoute() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const charity = useAdminCharity(id);
  const payouts = useCharityPayouts(id);

  return (
    <>
      <PageHeader
        title="Payouts"
        note="Stripe pays each card donation to the charity's own Stripe account, once Stripe lets the account take them."
        action={
          <Button component={Link} to={adminPaths.charities} variant="default">
            Back to charities
          </Button>
        }
      />
      <Loaded query={charity} loading="Loading the charity..." what="the charity">
        {(found) => (
          <Loaded query={payouts} loading="Loading its Stripe account..." what="its Stripe account">
            {(status) => (
              <CharityPayoutsPanel charity={found} payouts={status} expired={searchParams.get('expired') === '1'} />
            )}
          </Loaded>
        )}
      </Loaded>
    </>
  );
}
