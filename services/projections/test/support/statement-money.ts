/** A statement's money columns: what was paid, refunded and disputed, and what was raised of it. */
export const money = (grossCents: number, refundedCents = 0, disputedCents = 0) => ({
  grossCents,
  refundedCents,
  disputedCents,
  amountCents: grossCents - refundedCents - disputedCents,
});
