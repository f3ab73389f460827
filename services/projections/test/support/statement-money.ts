/**
 * A statement's money columns: what was paid, refunded and disputed, what was raised of it, the
 * processor's fees and the platform's share, and net (raised less the processor's fees).
 */
export const money = (
  grossCents: number,
  refundedCents = 0,
  disputedCents = 0,
  feesCents = 0,
  platformFeesCents = 0,
) => {
  const amountCents = grossCents - refundedCents - disputedCents;
  return {
    grossCents,
    refundedCents,
    disputedCents,
    amountCents,
    feesCents,
    platformFeesCents,
    netCents: amountCents - feesCents,
  };
};
