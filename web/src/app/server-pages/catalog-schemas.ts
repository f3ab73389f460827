/*
 * As session-schemas.ts: the catalogue's schemas, a step of their own after the session's. The
 * cache warm-up parses the lists with them, a shirt's page and the landing a charity.
 */
export { charity, charityList, shirtList } from '@qrshirt/contracts';
