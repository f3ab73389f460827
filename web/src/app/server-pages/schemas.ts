/*
 * The API's schemas the server-rendered pages parse answers with, loaded by boot.ts as a step of its own before
 * the rest: building them (zod and the contracts' modules) is then a task of its own too.
 */
export { authSession, charity, charityList, donation, fundraiserDetails, fundraiserStats } from '@qrshirt/contracts';
