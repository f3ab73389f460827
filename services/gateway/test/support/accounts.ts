import type { ApiAnswer } from '@qrshirt/test-support';
import { expect } from 'vitest';

/** `{ error, code }` with the spec's message for the code. */
export function expectAuthError(answer: ApiAnswer, status: number, code: string, message: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { error: message, code } });
}

/** A clock the test moves forward. */
export function testClock(start = Date.now()) {
  let now = start;
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
