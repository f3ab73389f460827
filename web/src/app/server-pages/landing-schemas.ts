/*
 * As session-schemas.ts, for the QR landing alone: the schemas of its donations and of its
 * owner's figures, a step of their own after the others.
 */
export { donation, fundraiserStats } from '@qrshirt/contracts';
