import type { Request, Response } from 'express';
import type passport from 'passport';

type Passport = InstanceType<typeof passport.Passport>;

export interface StrategyOutcome {
  user: Express.User | false;
  /** What the strategy said when it failed, e.g. `{ code }` from our verify functions. */
  info: unknown;
}

/** passport hands strategy failures on as they came; a rejection should be an Error. */
export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** A passport strategy as a promise, without sessions: the routes answer with tokens themselves. */
export function runStrategy(passport: Passport, name: string, req: Request, res: Response): Promise<StrategyOutcome> {
  return new Promise((resolve, reject) => {
    const middleware = passport.authenticate(
      name,
      { session: false },
      (error: unknown, user: Express.User | false | undefined, info: unknown) => {
        if (error) reject(asError(error));
        else resolve({ user: user ?? false, info });
      },
    ) as (req: Request, res: Response, next: (error?: unknown) => void) => void;
    middleware(req, res, (error) => reject(asError(error)));
  });
}
