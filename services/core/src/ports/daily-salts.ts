/** Where every gateway finds the salt of the day (the credentials store: SQLite file or Redis). */
export interface DailySalts {
  /**
   * The salt of this UTC day (`yyyy-mm-dd`), the same for every caller: the one stored, or
   * `candidate` when none was. Only the newest day asked for is kept: the salts of days before it
   * are deleted (a late caller's past day included, once answered), and it is forgotten after
   * its day even if nobody asks again.
   */
  dailySalt(day: string, candidate: string, now: number): Promise<string>;
}
