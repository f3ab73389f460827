/**
 * The proof-of-work challenges whose solution was accepted, so that each is accepted once by
 * every gateway that shares the store. A challenge is known by its id (the nonce the gateway
 * signed into it) until it expires; after that its signature refuses it anyway, so it is cleared.
 */
export interface SpentChallenges {
  /**
   * Records the challenge as spent, atomically: true for the one caller that spent it first,
   * false for every later one while it has not expired. Times are epoch milliseconds.
   */
  spendChallenge(id: string, expiresAt: number, now: number): Promise<boolean>;
}
